# The Amerikaner Discord bot. Games live in /app/data: mount it as a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/app/data/amerikaner.sqlite3
WORKDIR /app

COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir . && useradd --create-home amerikaner \
    && mkdir -p /app/data && chown amerikaner /app/data

USER amerikaner
VOLUME ["/app/data"]
CMD ["amerikaner", "bot"]
