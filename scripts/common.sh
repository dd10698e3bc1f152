# Shared by the scripts in this directory (sourced, not run).
#
# Puts the pinned tools first on PATH and sets the environment Trunk and the
# browser tests need, so nothing ever downloads a tool by itself.

set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
E2E_DIR="$REPO_ROOT/tests/e2e"

# Versions: keep in step with Cargo.toml, Trunk.toml and tests/e2e/package.json.
WASM_BINDGEN_VERSION="0.2.130"
TRUNK_VERSION="0.21.14"
WASM_OPT_VERSION="132"
PLAYWRIGHT_VERSION="1.64.1"
NODE_MIN_MAJOR=20

# wasm-opt (npm binaryen) first, then cargo-installed tools.
export PATH="$E2E_DIR/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
export TRUNK_OFFLINE=true
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"

# say MESSAGE: one progress line, easy to spot between tool output.
say() {
  printf '\033[1m==> %s\033[0m\n' "$*"
}

# die MESSAGE: stop with an error.
die() {
  printf '\033[1;31merror:\033[0m %s\n' "$*" >&2
  exit 1
}

# Fetch every crate (all targets) so Trunk's offline cargo build finds them.
fetch_crates() {
  (cd "$REPO_ROOT" && cargo fetch --quiet)
}

# The pinned librdkafka client (confluent-kafka from PyPI, which ships
# librdkafka) in .cache/venv: scripts/calibrate's consumers and the broker
# stage's tests (tests/broker/) use it.
CONFLUENT_KAFKA_VERSION="2.16.1"
VENV="$REPO_ROOT/.cache/venv"

# ensure_confluent_kafka: installs it into $VENV unless that exact version is there.
ensure_confluent_kafka() {
  if "$VENV/bin/python" -c "import sys, importlib.metadata as m; sys.exit(m.version('confluent-kafka') != '$CONFLUENT_KAFKA_VERSION')" 2>/dev/null; then
    return 0
  fi
  command -v python3 >/dev/null || die "python3 is not installed (the real-client consumers are Python, confluent-kafka)"
  say "confluent-kafka $CONFLUENT_KAFKA_VERSION: installing into $VENV"
  rm -rf "$VENV"
  python3 -m venv "$VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
  "$VENV/bin/pip" install -q "confluent-kafka==$CONFLUENT_KAFKA_VERSION" ||
    die "pip could not install confluent-kafka==$CONFLUENT_KAFKA_VERSION (is PyPI reachable?)"
}
