# Study Tutor: the `tutor` command in a slim, non-root image; the database lives on a volume.
#   docker build -t study-tutor .
#   docker run --rm -it -v tutor-data:/data study-tutor chat
#   docker run -d -v tutor-data:/data -e SLACK_BOT_TOKEN -e SLACK_APP_TOKEN study-tutor serve
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TUTOR_DB=/data/tutor.db \
    TUTOR_CONTENT=/app \
    PORT=3000

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY knowledge ./knowledge
COPY quizzes ./quizzes

# "./[charts]": this project with its charts extra (matplotlib), for the pictures in Slack.

RUN pip install --no-cache-dir "./[charts]" \
    && useradd --create-home --uid 10001 tutor \
    && mkdir -p /data \
    && chown tutor /data

USER 10001
VOLUME ["/data"]
EXPOSE 3000
ENTRYPOINT ["tutor"]
CMD ["serve"]
