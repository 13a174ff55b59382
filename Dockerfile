# A small image of the UNO bot: non-root, database on a volume, token from the environment.
#   docker build -t uno-bot .
#   docker run -e UNO_DISCORD__TOKEN=... -v uno-data:/data uno-bot
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    UNO_DATABASE__PATH=/data/uno.db
WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
# Editable install: the one copy of the code is /app, so bot/rulebook.py finds /app/docs/rules*.md
# (and local mode its static page) from any working directory, `uno-bot` included. A plain
# `pip install .` puts a second copy in site-packages without the rules pages.
# It runs on empty packages, before the code is copied, so that a change to the code reuses this
# layer instead of installing every dependency again.
RUN mkdir bot cogs && touch bot/__init__.py cogs/__init__.py \
    && pip install --no-cache-dir -e . \
    && useradd --uid 10001 --user-group --no-create-home --home-dir /app uno \
    && mkdir -p /data && chown uno /data
COPY bot ./bot
COPY cogs ./cogs
# Every language's rules page: /uno rules reads the reader's (tests/test_docker.py checks this layout).
COPY docs/rules*.md ./docs/
USER uno
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
