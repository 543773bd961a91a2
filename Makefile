# Thin wrappers over the npm scripts, for people whose fingers type make.
.PHONY: run test bench crds build migrate clean lint
run:
	npm start
test:
	npm test
bench:
	npm run bench
crds:
	npm run gen
build:
	npm run build
migrate:
	npm run migrate
clean:
	npm run clean
lint:
	npx tsc -b --pretty
