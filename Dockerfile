# Scaffale: one app process per container. Build: docker build -t scaffale .
# Run (embedded database kept in the /data volume):
#   docker run -p 3000:3000 -v scaffale-data:/data -e PUBLIC_URL=http://localhost:3000 scaffale
# Several replicas, PostgreSQL, a bucket and a proxy: compose.yaml and docs/operations.md.

# ---- build: every dependency, the web app and the server bundle ----
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
# The app, then the operator commands (admin, backup, restore, storage:migrate) as plain
# JavaScript beside the server bundle, so the runtime image needs no TypeScript loader.
RUN npm run build \
 && npx esbuild scripts/admin.ts scripts/backup.ts scripts/restore.ts scripts/storage-migrate.ts \
      --bundle --platform=node --target=node20 --format=esm --packages=external \
      --alias:@shared=./src/shared --outdir=dist/server --entry-names=cli-[name] --log-level=warning

# ---- production dependencies only ----
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime: the built app, production dependencies, a non-root user ----
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root package.json ./
# The image's files belong to root and are read-only to the app; it writes only to /data.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness: the process answers and its database does (GET /api/health, 200 or 503).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/server/main.js"]
