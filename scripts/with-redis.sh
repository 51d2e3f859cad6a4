#!/usr/bin/env bash
# Runs a command with a real redis-server on a free loopback port and
# REDIS_URL pointing at it; installs redis-server with apt-get if missing.
set -euo pipefail

if ! command -v redis-server >/dev/null 2>&1; then
	echo "with-redis: redis-server not found, installing it with apt-get" >&2
	if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
	$SUDO apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
fi

dir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()' 2>/dev/null \
	|| shuf -i 20000-60000 -n 1)
redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" --save "" --appendonly no --daemonize no \
	--logfile "$dir/redis.log" &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT

for _ in $(seq 1 50); do
	if redis-cli -p "$port" ping >/dev/null 2>&1; then break; fi
	sleep 0.1
done
redis-cli -p "$port" ping >/dev/null || { echo "with-redis: redis-server did not start" >&2; cat "$dir/redis.log" >&2; exit 1; }
echo "with-redis: redis-server $(redis-server --version | awk '{print $3}') on 127.0.0.1:$port" >&2

export REDIS_URL="redis://127.0.0.1:$port/0"
export REDIS_SERVER_BIN="$(command -v redis-server)"
"$@"
