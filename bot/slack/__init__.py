"""The Slack adapter: bolt app, handlers, Block Kit builders, server. The core never imports it."""
