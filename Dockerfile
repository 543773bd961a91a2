# One image for every Palisade component: `palisade <component>` (the chart passes the component as
# the container's argument), e.g. `docker run palisade:dev gateway`, or `all` for the whole stack.
#
#   docker build -t palisade:dev .
#   docker build --build-arg ONNXRUNTIME_NODE_INSTALL=cuda12 -t palisade:dev-cuda .   # GPU detectors
FROM node:20-bookworm-slim AS build
# re2 and other native modules fall back to a source build when no prebuilt binary fits.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# onnxruntime-node's CUDA libraries: skip (CPU only, .npmrc's default) or cuda12.
ARG ONNXRUNTIME_NODE_INSTALL=skip
ENV npm_config_onnxruntime_node_install=${ONNXRUNTIME_NODE_INSTALL}
# Dependencies first, so a source change does not reinstall them.
COPY package.json package-lock.json .npmrc ./
COPY scripts/ scripts/
COPY core/package.json core/
COPY gateway/package.json gateway/
COPY detectors/package.json detectors/
COPY admin/package.json admin/
COPY operator/package.json operator/
COPY mock-llm/package.json mock-llm/
COPY hack/package.json hack/
COPY testing/package.json testing/
COPY charts/package.json charts/
COPY ui/package.json ui/
COPY cli/package.json cli/
# ensure-installed runs `npm ci` and stamps it, so the build step below does not install again.
RUN node scripts/ensure-installed.mjs
COPY . .
# The image ships the product only: not the bench (hack/), the test peers (testing/: Kafka broker,
# chart renderer) or the chart's tests (charts/).
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf hack testing charts node_modules/@palisade/hack node_modules/@palisade/testing node_modules/@palisade/charts \
 && find . -name '*.tsbuildinfo' -delete

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=root:root /app /app
# The `node` user (uid 1000) matches the chart's runAsUser; the filesystem stays read-only to it.
USER node
EXPOSE 8085
ENTRYPOINT ["node", "cli/dist/main.js"]
CMD ["all"]
