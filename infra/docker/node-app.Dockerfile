# One image recipe for every Node process of the product (gateway, services, workers).
#   docker build -f infra/docker/node-app.Dockerfile --build-arg APP_DIR=services/user .
FROM node:24-bookworm-slim AS build
WORKDIR /repo
COPY package.json package-lock.json tsconfig.base.json ./
COPY infra/package.json infra/
COPY gateway/package.json gateway/
COPY services services
RUN npm install --ignore-scripts --no-audit --no-fund
COPY infra/src infra/src
COPY gateway gateway
ARG APP_DIR
RUN npx tsx infra/src/cli/build.ts ${APP_DIR}

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /repo
ARG APP_DIR
COPY --from=build /repo/package.json /repo/package-lock.json ./
COPY --from=build /repo/services /repo/services
COPY --from=build /repo/gateway /repo/gateway
COPY --from=build /repo/infra/package.json /repo/infra/package.json
RUN npm install --omit=dev --ignore-scripts --no-audit --no-fund
WORKDIR /repo/${APP_DIR}
USER node
# ENTRY is main (HTTP + event consumers) or worker (BullMQ jobs); set by docker-compose.
ENV ENTRY=main
CMD ["sh", "-c", "exec node --enable-source-maps --disable-warning=TimeoutNegativeWarning dist/${ENTRY}.js"]
