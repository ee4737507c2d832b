# Image for the Linux workers (main queue and LibreOffice recalc queue). Not built on the development machines.
FROM node:20-bookworm
WORKDIR /app
COPY . .
ENV SHEETBENCH_SKIP_LOCAL_MODEL=1
# setup.sh installs the npm dependencies with `npm ci` (exactly the committed lock file), then the rest.
RUN bash scripts/setup.sh
