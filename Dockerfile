# A small image of the UNO bot: non-root, database on a volume, token from the environment.
#   docker build -t uno-bot .
#   docker run -e UNO_DISCORD__TOKEN=... -v uno-data:/data uno-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    UNO_DATABASE__PATH=/data/uno.db
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY docs/rules.md ./docs/rules.md
RUN pip install --no-cache-dir . \
    && useradd --system --uid 10001 --home-dir /app uno \
    && mkdir -p /data && chown uno /data
USER uno
VOLUME ["/data"]
# Run from /app so the rules document (docs/rules.md) is found beside the code.
CMD ["python", "-m", "bot"]
