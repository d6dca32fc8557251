# Study Tutor: the `tutor` command in a slim, non-root image; the database lives on a volume.
#   docker build -t study-tutor .
#   docker run --rm -it -v tutor-data:/data study-tutor chat
#   docker run -d -v tutor-data:/data -e SLACK_BOT_TOKEN -e SLACK_APP_TOKEN study-tutor serve
# The base is pinned to the Python patch release the suite runs on (bump it with the tests).
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TUTOR_DB=/data/tutor.db \
    TUTOR_CONTENT=/app \
    PORT=3000

WORKDIR /app

# Dependencies first, at the versions in constraints.txt: this layer is rebuilt only when
# pyproject.toml or constraints.txt change, not on every code change.
COPY pyproject.toml constraints.txt ./
# The charts extra (matplotlib) too: the pictures in Slack.
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; print('\n'.join(p['dependencies'] + p['optional-dependencies']['charts']))" > /tmp/requirements.txt \
    && pip install --no-cache-dir -c constraints.txt -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY README.md ./
COPY bot ./bot
COPY knowledge ./knowledge
COPY quizzes ./quizzes

RUN pip install --no-cache-dir --no-deps . \
    && useradd --create-home --uid 10001 tutor \
    && mkdir -p /data \
    && chown tutor /data

USER 10001
VOLUME ["/data"]
EXPOSE 3000
# HTTP mode answers GET /healthz; Socket Mode listens on no port, so it counts as healthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; os.environ.get('SLACK_APP_TOKEN') or urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '3000') + '/healthz', timeout=4)"]
ENTRYPOINT ["tutor"]
CMD ["serve"]
