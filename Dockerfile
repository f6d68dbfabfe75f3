# The console as one image: the compiled server (build/app/server.js), the Remix build, the operator
# CLI (build/cli.js) and production dependencies only. Only the base image is fetched: no `# syntax=`
# line (BuildKit would fetch its frontend from Docker Hub), and the legacy builder works too.
#   docker build -t ai-console .
#   docker run -d --read-only -v console-data:/app/data -p 127.0.0.1:3000:3000 -e TRUST_PROXY=172.16.0.0/12 \
#     -e APP_ORIGIN=https://console.example.com -e GOOGLE_CLIENT_ID=… -e GOOGLE_CLIENT_SECRET=… ai-console
# It listens on 0.0.0.0 (HOST), which the server refuses without an identity provider (Google's, or
# GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET); -e ALLOW_DEV_SIGNIN=true instead is for a private trial
# only (anyone who reaches it signs in as anyone). README "Docker" says why TRUST_PROXY.
# Runs as `node` (uid 1000); only /app/data is written (a volume). Give it time to drain on stop:
# `docker stop -t 30` (SHUTDOWN_TIMEOUT_MS is 25 s by default).

FROM node:22-bookworm-slim AS deps
WORKDIR /app
# better-sqlite3 compiles from source when its prebuilt binary can't be fetched; node-gyp finds the
# headers in the image instead of downloading them.
ENV npm_config_nodedir=/usr/local
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The install's postinstall applies these (patch-package; decision 0093).
COPY patches ./patches
RUN npm install --no-audit --no-fund

FROM deps AS build
COPY . .
# Build, then keep what runs: production dependencies, without source maps, type declarations and docs
# (but every license text, which MIT and BSD ask for in every copy: LICENSE.md is the only one of
# @remix-run/*, qs, ms and others, and a README the only one of pg-types, pgpass and others); of the native module only its binary; of the tokenizer only its modules
# (not its browser bundles, sources and test data). TypeScript, the optional peer of Remix, is removed
# by hand: the lockfile marks it dev-and-optional, which `npm prune --omit=dev --omit=peer` keeps (20 MB).
RUN npm run build \
 && npm prune --omit=dev --omit=peer --no-audit --no-fund \
 && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver \
 && find node_modules -type f \( -name "*.map" -o -name "*.d.ts" -o -name "*.d.mts" -o -name "*.d.cts" -o -iname "*.md" \) ! -iname "licen[cs]e*" ! -iname "copying*" ! -iname "readme*" -delete \
 && rm -rf node_modules/@types node_modules/gpt-tokenizer/dist node_modules/gpt-tokenizer/src node_modules/gpt-tokenizer/data \
 && cd node_modules/better-sqlite3 \
 && mv build/Release/better_sqlite3.node /tmp/ && rm -rf build deps src \
 && mkdir -p build/Release && mv /tmp/better_sqlite3.node build/Release/ \
 && cd /app && rm -rf build/.vite && npm cache clean --force

FROM node:22-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_PATH=/app/data/console.db \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_LOGS_MAX=0
# The code stays root-owned (the server can't rewrite itself); only the data folder is the app's.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
# Liveness (/healthz: the process answers), not readiness (/readyz): an orchestrator that restarts
# unhealthy containers must not restart every replica during a database outage they recover from.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The entrypoint execs node: it is PID 1 and gets docker stop's SIGTERM itself (server/shutdown.ts).
CMD ["node", "--enable-source-maps", "build/app/server.js"]
