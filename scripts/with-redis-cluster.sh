#!/usr/bin/env bash
# Runs a command with a real 3-master Redis Cluster (redis-server processes
# on free loopback ports, no replicas) and, for the command:
#   REDIS_CLUSTER_ADDRS  host:port,host:port,host:port
#   REDIS_URL            redis://host1:port1?addr=host2:port2&addr=host3:port3
#                        (the cluster form infra/redisconn and bot serve read)
# Installs redis-server with apt-get if missing; stops the nodes on exit.
set -euo pipefail

if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
	echo "with-redis-cluster: redis-server not found, installing it with apt-get" >&2
	if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
	$SUDO apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
fi

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()' 2>/dev/null \
		|| shuf -i 20000-60000 -n 1
}

dir=$(mktemp -d)
pids=()
ports=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	rm -rf "$dir"
}
trap cleanup EXIT

for i in 1 2 3; do
	port=$(free_port)
	# The cluster bus listens on port+10000: pick again if that is taken.
	while [ "$port" -gt 55535 ]; do port=$(free_port); done
	mkdir -p "$dir/$port"
	redis-server --bind 127.0.0.1 --port "$port" --dir "$dir/$port" --save "" --appendonly no \
		--cluster-enabled yes --cluster-config-file "$dir/$port/nodes.conf" --cluster-node-timeout 5000 \
		--daemonize no --logfile "$dir/$port/redis.log" &
	pids+=($!)
	ports+=("$port")
done

for port in "${ports[@]}"; do
	for _ in $(seq 1 50); do
		if redis-cli -p "$port" ping >/dev/null 2>&1; then break; fi
		sleep 0.1
	done
	redis-cli -p "$port" ping >/dev/null || { echo "with-redis-cluster: node $port did not start" >&2; cat "$dir/$port/redis.log" >&2; exit 1; }
done

addrs=()
for port in "${ports[@]}"; do addrs+=("127.0.0.1:$port"); done
redis-cli --cluster create "${addrs[@]}" --cluster-replicas 0 --cluster-yes >"$dir/create.log" 2>&1 \
	|| { echo "with-redis-cluster: cluster create failed" >&2; cat "$dir/create.log" >&2; exit 1; }
# Every node must see the whole cluster before a client may use it.
for port in "${ports[@]}"; do
	for _ in $(seq 1 200); do
		if redis-cli -p "$port" cluster info 2>/dev/null | grep -q 'cluster_state:ok'; then break; fi
		sleep 0.1
	done
	redis-cli -p "$port" cluster info | grep -q 'cluster_state:ok' \
		|| { echo "with-redis-cluster: node $port does not see the cluster up" >&2; exit 1; }
done
echo "with-redis-cluster: 3 masters on ${addrs[*]} (redis-server $(redis-server --version | awk '{print $3}'))" >&2

export REDIS_CLUSTER_ADDRS
REDIS_CLUSTER_ADDRS=$(IFS=,; echo "${addrs[*]}")
export REDIS_URL="redis://${addrs[0]}?addr=${addrs[1]}&addr=${addrs[2]}"
export REDIS_SERVER_BIN="$(command -v redis-server)"
"$@"
