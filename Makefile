# Thin wrappers over the npm scripts, for people whose fingers type make.
.PHONY: run test bench eval build migrate clean lint
run:
	npm start
test:
	npm test
bench:
	npm run bench
eval:
	npm run eval:pii
	npm run eval:threat
build:
	npm run build
migrate:
	npm run migrate
clean:
	npm run clean
lint:
	npx tsc -b --pretty
