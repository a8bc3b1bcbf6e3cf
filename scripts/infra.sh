#!/usr/bin/env bash
# Make PostgreSQL, Redis and (optionally) Apache Kafka reachable for VoltDepot
# on a plain Debian 12 machine (no Docker). See docs/infrastructure.md.
#
#   bash scripts/infra.sh up [--kafka]   ensure services, write .var/infra.env
#   bash scripts/infra.sh down           stop only what this script started
#   bash scripts/infra.sh status         one line per service
#
# Configuration (env): DATABASE_URL, REDIS_URL, KAFKA_BROKERS, VOLTDEPOT_KAFKA,
# VOLTDEPOT_ALLOW_APT and the VOLTDEPOT_* knobs listed in the docs.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
INFRA_DIR="$ROOT/scripts/infra"
VAR_DIR="${VOLTDEPOT_VAR_DIR:-$ROOT/.var}"
ENV_FILE="$VAR_DIR/infra.env"

DEFAULT_DATABASE_URL="postgres://postgres@127.0.0.1:5432/voltdepot"
DEFAULT_REDIS_URL="redis://127.0.0.1:6379"
DEFAULT_KAFKA_BROKERS="127.0.0.1:19092"

CFG_DATABASE_URL="${DATABASE_URL:-$DEFAULT_DATABASE_URL}"
CFG_REDIS_URL="${REDIS_URL:-$DEFAULT_REDIS_URL}"
CFG_KAFKA_BROKERS="${KAFKA_BROKERS:-$DEFAULT_KAFKA_BROKERS}"

KAFKA_VERSION="${VOLTDEPOT_KAFKA_VERSION:-4.1.2}"
KAFKA_HEAP="${VOLTDEPOT_KAFKA_HEAP:-512m}"
KAFKA_TIMEOUT="${VOLTDEPOT_KAFKA_TIMEOUT:-60}"
PG_PRIVATE_PORT="${VOLTDEPOT_PG_PORT:-15432}"
PG_DIR="${VOLTDEPOT_PG_DIR:-$VAR_DIR/postgres}"
REDIS_DIR="$VAR_DIR/redis"
KAFKA_DIR="$VAR_DIR/kafka"

if [[ $EUID -eq 0 ]]; then
  ALLOW_APT="${VOLTDEPOT_ALLOW_APT:-1}"
else
  ALLOW_APT="${VOLTDEPOT_ALLOW_APT:-0}"
fi
APT_UPDATED=0

# --------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------

log() { printf 'infra: %s\n' "$*" >&2; }
die() {
  printf 'infra: ERROR: %s\n' "$*" >&2
  exit 1
}
have() { command -v "$1" >/dev/null 2>&1; }

is_true() {
  case "${1,,}" in
    1 | true | yes | on) return 0 ;;
    *) return 1 ;;
  esac
}

# URL with the password replaced by ***, for messages.
redact() { sed -E 's#(://[^:/@]*):[^@/]*@#\1:***@#' <<<"$1"; }

# %41 -> A (user names, database names in URLs)
urldecode() {
  local s=${1//+/ }
  printf '%b' "${s//%/\\x}"
}

strip_brackets() {
  local h=${1#[}
  printf '%s' "${h%]}"
}

is_local_host() {
  case "$(strip_brackets "$1")" in
    127.* | localhost | ::1 | 0.0.0.0 | '') return 0 ;;
    *) return 1 ;;
  esac
}

# address a server we start should bind to for the configured host
bind_addr() {
  case "$(strip_brackets "$1")" in
    ::1) printf '::1' ;;
    127.*) printf '%s' "$1" ;;
    *) printf '127.0.0.1' ;;
  esac
}

tcp_open() { # host port
  # shellcheck disable=SC2016 # expanded by the inner bash
  timeout 2 bash -c ': >"/dev/tcp/$0/$1"' "$(strip_brackets "$1")" "$2" 2>/dev/null
}

pid_alive() { # pidfile [cmdline-substring]
  local pidfile=$1 want=${2:-} pid
  [[ -s $pidfile ]] || return 1
  pid=$(head -n1 "$pidfile" 2>/dev/null | tr -dc '0-9')
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 1
  if [[ -n $want ]]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$want" || return 1
  fi
  printf '%s' "$pid"
}

apt_allowed() { is_true "$ALLOW_APT" && [[ $EUID -eq 0 ]] && have apt-get; }

apt_install() { # packages...
  apt_allowed || return 1
  mkdir -p "$VAR_DIR"
  local aptlog="$VAR_DIR/apt.log"
  if [[ $APT_UPDATED -eq 0 ]]; then
    log "apt-get update (log: $aptlog)"
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 update >>"$aptlog" 2>&1 9>&- ||
      die "apt-get update failed; see $aptlog"
    APT_UPDATED=1
  fi
  log "apt-get install -y $* (log: $aptlog)"
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 install -y --no-install-recommends "$@" \
    >>"$aptlog" 2>&1 9>&- || die "apt-get install $* failed; see $aptlog"
}

apt_hint() {
  if ! is_true "$ALLOW_APT"; then
    printf 'apt is not allowed (VOLTDEPOT_ALLOW_APT=%s)' "$ALLOW_APT"
  elif [[ $EUID -ne 0 ]]; then
    printf 'apt needs root (running as %s)' "$(id -un)"
  else
    printf 'apt-get is not available'
  fi
}

# Serialise concurrent up/down runs (parallel test jobs). fd 9 is closed for
# every server we spawn so that none of them keeps the lock.
take_lock() {
  mkdir -p "$VAR_DIR"
  exec 9>"$VAR_DIR/.infra.lock"
  if have flock; then
    flock -w 300 9 || die "another scripts/infra.sh run holds $VAR_DIR/.infra.lock for more than 300 s"
  fi
}

# --------------------------------------------------------------------------
# PostgreSQL
# --------------------------------------------------------------------------

# Sets PG_SCHEME PG_USER_RAW PG_USER PG_PASS PG_HOST PG_PORT PG_DB_RAW PG_DB PG_QUERY.
parse_pg_url() {
  local url=$1
  local re='^(postgres|postgresql)://(([^:@/]*)(:([^@/]*))?@)?(\[[^]/]*\]|[^:/?]*)(:([0-9]+))?(/([^?]*))?(\?(.*))?$'
  [[ $url =~ $re ]] || die "cannot parse DATABASE_URL=$(redact "$url") (expected postgres://user[:password]@host[:port]/database)"
  PG_SCHEME=${BASH_REMATCH[1]}
  PG_USER_RAW=${BASH_REMATCH[3]}
  PG_PASS=${BASH_REMATCH[5]}
  PG_HOST=${BASH_REMATCH[6]:-127.0.0.1}
  PG_PORT=${BASH_REMATCH[8]:-5432}
  PG_DB_RAW=${BASH_REMATCH[10]}
  PG_QUERY=${BASH_REMATCH[12]}
  PG_USER=$(urldecode "${PG_USER_RAW:-postgres}")
  PG_DB=$(urldecode "${PG_DB_RAW:-${PG_USER_RAW:-postgres}}")
}

pg_url_for() { # host port db-raw -> URL keeping credentials and query of DATABASE_URL
  local cred="" url
  if [[ -n $PG_USER_RAW ]]; then
    cred=$PG_USER_RAW
    [[ -n $PG_PASS ]] && cred+=":$PG_PASS"
    cred+="@"
  fi
  url="$PG_SCHEME://$cred$1:$2/$3"
  [[ -n $PG_QUERY ]] && url+="?$PG_QUERY"
  printf '%s' "$url"
}

pg_ready() { # url host port
  if have pg_isready; then
    pg_isready -q -t 3 -d "$1" >/dev/null 2>&1
  else
    tcp_open "$2" "$3"
  fi
}

pg_server_installed() {
  compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || have postgres
}

pg_bindir() { # highest installed major version that has initdb and pg_ctl
  local d best=""
  while read -r d; do
    [[ -x $d/initdb && -x $d/pg_ctl ]] && best=$d
  done < <(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V)
  if [[ -z $best ]] && have initdb && have pg_ctl; then
    best=$(dirname "$(command -v initdb)")
  fi
  [[ -n $best ]] || return 1
  printf '%s' "$best"
}

# OS user that owns the private cluster (initdb refuses to run as root)
pg_os_user() {
  if [[ $EUID -ne 0 ]]; then
    id -un
  elif id postgres >/dev/null 2>&1; then
    printf 'postgres'
  else
    if ! id voltdepot-pg >/dev/null 2>&1; then
      log "creating system user voltdepot-pg to own the private PostgreSQL cluster"
      useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin voltdepot-pg ||
        die "could not create the OS user voltdepot-pg (initdb refuses to run as root)"
    fi
    printf 'voltdepot-pg'
  fi
}

as_user() { # user cmd...
  local user=$1
  shift
  if [[ $user == "$(id -un)" ]]; then
    "$@"
  else
    runuser -u "$user" -- "$@"
  fi
}

private_pg_pid() { pid_alive "$PG_DIR/data/postmaster.pid" postgres; }

# Start a Debian cluster (pg_lsclusters). Prints the URL to use on success.
start_system_cluster() {
  have pg_lsclusters && have pg_ctlcluster || return 1
  local line ver name port status owner chosen="" cport=""
  while read -r ver name port status owner _; do
    [[ -n $ver ]] || continue
    if [[ $port == "$PG_PORT" ]]; then
      chosen="$ver $name $status $owner"
      cport=$port
      break
    fi
    if [[ -z $chosen ]]; then
      chosen="$ver $name $status $owner"
      cport=$port
    fi
  done < <(pg_lsclusters --no-header 2>/dev/null)
  [[ -n $chosen ]] || return 1
  read -r ver name status owner <<<"$chosen"
  line="$ver/$name (port $cport)"
  if [[ $EUID -ne 0 && $owner != "$(id -un)" ]]; then
    log "Debian cluster $line belongs to $owner; cannot start it as $(id -un)"
    return 1
  fi
  local url
  url=$(pg_url_for 127.0.0.1 "$cport" "${PG_DB_RAW:-${PG_USER_RAW:-postgres}}")
  [[ $(strip_brackets "$PG_HOST") == localhost ]] && url=$(pg_url_for localhost "$cport" "${PG_DB_RAW:-${PG_USER_RAW:-postgres}}")
  if [[ $status != online* ]]; then
    log "starting Debian PostgreSQL cluster $line: pg_ctlcluster --skip-systemctl-redirect $ver $name start"
    if ! pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" start 9>&- >&2; then
      log "pg_ctlcluster could not start $line (log: /var/log/postgresql/postgresql-$ver-$name.log)"
      return 1
    fi
  fi
  local i
  for ((i = 0; i < 60; i++)); do
    if pg_ready "$url" 127.0.0.1 "$cport"; then
      [[ $cport != "$PG_PORT" ]] && log "note: cluster $line listens on port $cport, not $PG_PORT; using it"
      printf '%s' "$url"
      return 0
    fi
    sleep 0.5
  done
  log "Debian cluster $line is $status but does not accept connections at 127.0.0.1:$cport"
  return 1
}

# Init (once) and start the private cluster under $PG_DIR. Prints the URL.
start_private_cluster() {
  local bindir osuser data="$PG_DIR/data" url
  bindir=$(pg_bindir) || return 1
  osuser=$(pg_os_user)
  url=$(pg_url_for 127.0.0.1 "$PG_PRIVATE_PORT" "${PG_DB_RAW:-${PG_USER_RAW:-postgres}}")
  mkdir -p "$PG_DIR"
  [[ $EUID -eq 0 ]] && chown -R "$osuser" "$PG_DIR"
  as_user "$osuser" test -w "$PG_DIR" ||
    die "$PG_DIR is not writable by OS user $osuser (a parent folder is not traversable?); set VOLTDEPOT_PG_DIR to a folder $osuser can write"

  local major=${bindir%/bin}
  major=${major##*/}
  if [[ -s $data/PG_VERSION && $major =~ ^[0-9]+$ && $(cat "$data/PG_VERSION") != "$major" ]]; then
    log "private cluster $data was made by PostgreSQL $(cat "$data/PG_VERSION"), not $major: re-initialising it"
    rm -rf "$data"
  fi
  if [[ ! -s $data/PG_VERSION ]]; then
    rm -rf "$data"
    log "initialising private PostgreSQL cluster in $data (superuser $PG_USER, trust auth, owner $osuser)"
    (cd "$PG_DIR" && as_user "$osuser" "$bindir/initdb" -D "$data" -U "$PG_USER" --auth=trust \
      -E UTF8 --no-locale >"$PG_DIR/initdb.log" 2>&1) ||
      die "initdb failed; see $PG_DIR/initdb.log"
    cat >>"$data/postgresql.conf" <<EOF

# --- added by scripts/infra.sh (throw-away development/test cluster) ---
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
EOF
  fi
  if tcp_open 127.0.0.1 "$PG_PRIVATE_PORT" && ! private_pg_pid >/dev/null; then
    die "port 127.0.0.1:$PG_PRIVATE_PORT (for the private PostgreSQL cluster) is taken by another program; set VOLTDEPOT_PG_PORT to a free port below 32768"
  fi
  log "starting private PostgreSQL cluster on 127.0.0.1:$PG_PRIVATE_PORT"
  (cd "$PG_DIR" && as_user "$osuser" "$bindir/pg_ctl" -D "$data" -l "$PG_DIR/postgres.log" -w -t 60 \
    -o "-p $PG_PRIVATE_PORT" start >/dev/null 9>&-) || {
    tail -n 20 "$PG_DIR/postgres.log" >&2 2>/dev/null || true
    die "the private PostgreSQL cluster did not start; see $PG_DIR/postgres.log"
  }
  printf '%s' "$url"
}

# Create the database named in the URL if missing (idempotent, race tolerant).
pg_ensure_db() { # url
  local url=$1 out maint exists
  have psql || apt_install postgresql-client ||
    die "psql is needed to check/create database $PG_DB but is not installed and $(apt_hint): install postgresql-client"
  if out=$(psql "$url" -XAtq -c 'select 1' 2>&1); then
    return 0
  fi
  maint=$(pg_url_for "$PG_HOST" "$PG_PORT" postgres) # PG_* describe $url (parse_pg_url)
  exists=$(psql "$maint" -XAtq -v "db=$PG_DB" -f - 2>&1 <<<"select count(*) from pg_database where datname = :'db';") ||
    die "PostgreSQL at $(redact "$url") accepts connections but login failed: $out${out:+ / }$exists (fix the user/password in DATABASE_URL, or create role $PG_USER)"
  if [[ $exists == 0 ]]; then
    log "creating database $PG_DB"
    if ! out=$(psql "$maint" -XAtq -v ON_ERROR_STOP=1 -v "db=$PG_DB" -f - 2>&1 <<<'create database :"db";'); then
      [[ $(psql "$maint" -XAtq -v "db=$PG_DB" -f - 2>/dev/null <<<"select count(*) from pg_database where datname = :'db';") == 1 ]] ||
        die "could not create database $PG_DB at $(redact "$maint"): $out"
    fi
  fi
  out=$(psql "$url" -XAtq -c 'select 1' 2>&1) || die "cannot connect to $(redact "$url"): $out"
}

PG_URL="" PG_ORIGIN=""

ensure_postgres() {
  parse_pg_url "$CFG_DATABASE_URL"
  local private_url
  private_url=$(pg_url_for 127.0.0.1 "$PG_PRIVATE_PORT" "${PG_DB_RAW:-${PG_USER_RAW:-postgres}}")
  if pg_ready "$CFG_DATABASE_URL" "$PG_HOST" "$PG_PORT"; then
    PG_URL=$CFG_DATABASE_URL
    PG_ORIGIN=$(pg_origin "$PG_HOST" "$PG_PORT" quick)
  elif ! is_local_host "$PG_HOST"; then
    die "PostgreSQL is not reachable at $(redact "$CFG_DATABASE_URL") (host $PG_HOST is not this machine): start it there or set DATABASE_URL to a reachable server"
  elif private_pg_pid >/dev/null && pg_ready "$private_url" 127.0.0.1 "$PG_PRIVATE_PORT"; then
    PG_URL=$private_url
    PG_ORIGIN="started by infra.sh (private cluster $PG_DIR)"
  else
    log "PostgreSQL is not reachable at $(redact "$CFG_DATABASE_URL")"
    if ! pg_server_installed; then
      apt_install postgresql ||
        die "PostgreSQL is not reachable at $(redact "$CFG_DATABASE_URL"), no PostgreSQL server is installed and $(apt_hint): install postgresql (apt-get install postgresql) or set DATABASE_URL to a reachable server"
    fi
    local url
    if [[ $PG_PORT != "$PG_PRIVATE_PORT" ]] && url=$(start_system_cluster); then
      PG_URL=$url
      PG_ORIGIN="Debian system cluster (started now by infra.sh; not stopped by down)"
    elif pg_bindir >/dev/null; then
      url=$(start_private_cluster) || exit 1
      PG_URL=$url
      PG_ORIGIN="started by infra.sh (private cluster $PG_DIR)"
    else
      die "PostgreSQL is not reachable at $(redact "$CFG_DATABASE_URL") and no usable server binaries (initdb, pg_ctl) were found: install postgresql or set DATABASE_URL to a reachable server"
    fi
  fi
  parse_pg_url "$PG_URL"
  pg_ensure_db "$PG_URL"
}

pg_origin() { # host port [quick]
  local pid
  if is_local_host "$1" && [[ $2 == "$PG_PRIVATE_PORT" ]] && pid=$(private_pg_pid); then
    printf 'started by infra.sh (private cluster %s, pid %s)' "$PG_DIR" "$pid"
    return
  fi
  if [[ ${3:-} != quick ]] && is_local_host "$1" && have pg_lsclusters; then
    local ver name port status
    while read -r ver name port status _; do
      if [[ $port == "$2" && $status == online* ]]; then
        printf 'external (Debian cluster %s/%s)' "$ver" "$name"
        return
      fi
    done < <(pg_lsclusters --no-header 2>/dev/null)
  fi
  printf 'external'
}

# --------------------------------------------------------------------------
# Redis
# --------------------------------------------------------------------------

# Sets RD_SCHEME RD_USER RD_PASS RD_HOST RD_PORT
parse_redis_url() {
  local url=$1
  local re='^(redis|rediss)://(([^:@/]*)(:([^@/]*))?@)?(\[[^]/]*\]|[^:/?]*)(:([0-9]+))?(/[0-9]*)?(\?.*)?$'
  [[ $url =~ $re ]] || die "cannot parse REDIS_URL=$(redact "$url") (expected redis://[:password@]host[:port][/db])"
  RD_SCHEME=${BASH_REMATCH[1]}
  RD_USER=$(urldecode "${BASH_REMATCH[3]}")
  RD_PASS=$(urldecode "${BASH_REMATCH[5]}")
  RD_HOST=${BASH_REMATCH[6]:-127.0.0.1}
  RD_PORT=${BASH_REMATCH[8]:-6379}
}

# prints the first reply line of PING (PONG, NOAUTH ...) or fails
redis_ping() { # url
  local reply
  if have redis-cli && [[ $RD_SCHEME == redis ]]; then
    reply=$(timeout 3 redis-cli -u "$1" --no-auth-warning ping 2>&1 | head -n1) || true
  else
    # shellcheck disable=SC2016 # expanded by the inner bash
    reply=$(timeout 3 bash -c '
      exec 3<>"/dev/tcp/$0/$1" || exit 1
      if [[ -n $3 ]]; then
        if [[ -n $2 ]]; then printf "AUTH %s %s\r\n" "$2" "$3" >&3; else printf "AUTH %s\r\n" "$3" >&3; fi
        IFS= read -r line <&3
      fi
      printf "PING\r\n" >&3
      IFS= read -r line <&3
      printf "%s" "${line#+}"' "$(strip_brackets "$RD_HOST")" "$RD_PORT" "$RD_USER" "$RD_PASS" 2>/dev/null) || true
  fi
  reply=${reply%$'\r'}
  printf '%s' "$reply"
  [[ $reply == PONG ]]
}

redis_pid() { pid_alive "$REDIS_DIR/redis.pid" redis-server; }

redis_origin() {
  local pid
  # a daemonized redis-server shows "redis-server <addr>:<port>" as its command line
  if is_local_host "$RD_HOST" && pid=$(redis_pid) &&
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q ":$RD_PORT\b"; then
    printf 'started by infra.sh (pid %s, data %s)' "$pid" "$REDIS_DIR"
  else
    printf 'external'
  fi
}

REDIS_URL_EFF="" REDIS_ORIGIN=""

ensure_redis() {
  parse_redis_url "$CFG_REDIS_URL"
  local reply
  if reply=$(redis_ping "$CFG_REDIS_URL"); then
    REDIS_URL_EFF=$CFG_REDIS_URL
    REDIS_ORIGIN=$(redis_origin)
    return
  fi
  is_local_host "$RD_HOST" ||
    die "Redis is not reachable at $(redact "$CFG_REDIS_URL") (host $RD_HOST is not this machine): start it there or set REDIS_URL to a reachable server"
  [[ $RD_SCHEME == redis ]] ||
    die "Redis is not reachable at $(redact "$CFG_REDIS_URL"); this script only starts plain (non-TLS) redis:// servers: start it yourself or set REDIS_URL=redis://127.0.0.1:6379"
  local pid
  if pid=$(redis_pid); then
    log "Redis started earlier by infra.sh (pid $pid) does not answer PING ($reply); restarting it"
    kill "$pid" 2>/dev/null || true
    sleep 1
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$REDIS_DIR/redis.pid"
  if tcp_open "$RD_HOST" "$RD_PORT"; then
    die "port $RD_HOST:$RD_PORT is open but does not answer Redis PING with PONG (reply: ${reply:-none}); a password missing from REDIS_URL, or another program on that port: fix REDIS_URL or free the port"
  fi
  if ! have redis-server; then
    log "Redis is not reachable at $(redact "$CFG_REDIS_URL") and redis-server is not installed"
    apt_install redis-server ||
      die "Redis is not reachable at $(redact "$CFG_REDIS_URL"), redis-server is not installed and $(apt_hint): install redis-server (apt-get install redis-server) or set REDIS_URL to a reachable server"
    # the Debian package may have started its own service on 6379
    if reply=$(redis_ping "$CFG_REDIS_URL"); then
      REDIS_URL_EFF=$CFG_REDIS_URL
      REDIS_ORIGIN="external (Debian redis-server service, installed now by infra.sh)"
      return
    fi
  fi
  ((RD_PORT < 32768)) || die "REDIS_URL port $RD_PORT: servers started by infra.sh must use a port below 32768; use one or start Redis yourself"
  mkdir -p "$REDIS_DIR"
  local args=(--daemonize yes --bind "$(bind_addr "$RD_HOST")" --port "$RD_PORT" --save "" --appendonly no
    --dir "$REDIS_DIR" --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/redis.log")
  [[ -n $RD_PASS && -z $RD_USER ]] && args+=(--requirepass "$RD_PASS")
  [[ -n $RD_PASS && -n $RD_USER && $RD_USER != default ]] &&
    die "REDIS_URL names ACL user $RD_USER; this script only starts Redis with no password or a default-user password"
  [[ -n $RD_PASS && $RD_USER == default ]] && args+=(--requirepass "$RD_PASS")
  log "starting redis-server on $(bind_addr "$RD_HOST"):$RD_PORT (data $REDIS_DIR)"
  redis-server "${args[@]}" >/dev/null 9>&- || die "redis-server failed to start; see $REDIS_DIR/redis.log"
  local i
  for ((i = 0; i < 50; i++)); do
    if redis_ping "$CFG_REDIS_URL" >/dev/null; then
      REDIS_URL_EFF=$CFG_REDIS_URL
      REDIS_ORIGIN=$(redis_origin)
      return
    fi
    sleep 0.2
  done
  tail -n 20 "$REDIS_DIR/redis.log" >&2 2>/dev/null || true
  die "redis-server did not answer PING within 10 s; see $REDIS_DIR/redis.log"
}

# --------------------------------------------------------------------------
# Kafka
# --------------------------------------------------------------------------

KAFKA_LIBS="$KAFKA_DIR/$KAFKA_VERSION/libs"
KAFKA_PROBE_DIR="$KAFKA_DIR/$KAFKA_VERSION/probe"
KAFKA_DATA="$KAFKA_DIR/data"
KAFKA_LOGS="$KAFKA_DIR/logs"
KAFKA_CONF="$KAFKA_DIR/server.properties"
KAFKA_PIDFILE="$KAFKA_DIR/kafka.pid"

# Sets KF_HOST KF_PORT from the first entry of KAFKA_BROKERS.
parse_kafka_brokers() {
  local first=${CFG_KAFKA_BROKERS%%,*}
  first=${first#PLAINTEXT://}
  first=${first// /}
  [[ $first =~ ^(\[[^]]*\]|[^:]+):([0-9]+)$ ]] ||
    die "cannot parse KAFKA_BROKERS=$CFG_KAFKA_BROKERS (expected host:port[,host:port...])"
  KF_HOST=${BASH_REMATCH[1]}
  KF_PORT=${BASH_REMATCH[2]}
}

# Kafka protocol check: send ApiVersions (v0) and expect a reply carrying our
# correlation id. Any Kafka broker answers this, even one that is still starting.
kafka_api_ping() { # host port
  local reply
  # shellcheck disable=SC2016 # expanded by the inner bash
  reply=$(timeout 3 bash -c '
    exec 3<>"/dev/tcp/$0/$1" || exit 1
    printf "\x00\x00\x00\x12\x00\x12\x00\x00\x00\x00\x30\x39\x00\x08infra-sh" >&3
    head -c 8 <&3 | od -An -tx1' "$(strip_brackets "$1")" "$2" 2>/dev/null) || return 1
  reply=${reply//[[:space:]]/}
  [[ ${reply:8:8} == 00003039 ]]
}

kafka_reachable() { # any broker of the list answers
  local b host port
  local -a brokers
  IFS=',' read -ra brokers <<<"$CFG_KAFKA_BROKERS"
  for b in "${brokers[@]}"; do
    b=${b// /}
    b=${b#PLAINTEXT://}
    [[ $b =~ ^(\[[^]]*\]|[^:]+):([0-9]+)$ ]] || continue
    host=${BASH_REMATCH[1]}
    port=${BASH_REMATCH[2]}
    kafka_api_ping "$host" "$port" && return 0
  done
  return 1
}

kafka_pid() { pid_alive "$KAFKA_PIDFILE" kafka.Kafka; }

kafka_origin() {
  local pid
  if pid=$(kafka_pid) && grep -qF "$KAFKA_CONF" "/proc/$pid/cmdline" 2>/dev/null &&
    grep -q "^listeners=PLAINTEXT://[^,]*:$KF_PORT," "$KAFKA_CONF" 2>/dev/null; then
    printf 'started by infra.sh (Kafka %s, pid %s, data %s)' "$(cat "$KAFKA_DIR/version" 2>/dev/null || echo "$KAFKA_VERSION")" "$pid" "$KAFKA_DIR"
  else
    printf 'external'
  fi
}

ensure_java() {
  if ! have java; then
    apt_install openjdk-17-jre-headless ||
      die "Kafka needs Java 17+ but java is not installed and $(apt_hint): install openjdk-17-jre-headless or set KAFKA_BROKERS to a reachable broker"
  fi
  local v
  v=$(java -version 2>&1 | sed -nE '/ version "/{s/.* version "([0-9]+).*/\1/p;q}')
  if [[ ! $v =~ ^[0-9]+$ ]] || ((v < 17)); then
    die "Kafka $KAFKA_VERSION needs Java 17+, but java -version says: $(java -version 2>&1 | head -n1); install openjdk-17-jre-headless (or put a JDK 17 first on PATH)"
  fi
}

# Fetch the broker jars once with Maven into $KAFKA_LIBS (~/.m2 is the cache).
kafka_fetch_libs() {
  [[ -f $KAFKA_LIBS/.complete ]] && return 0
  if ! have mvn; then
    apt_install maven ||
      die "the Kafka $KAFKA_VERSION jars are not cached in $KAFKA_LIBS and Maven is missing and $(apt_hint): install maven (it fetches org.apache.kafka:kafka_2.13:$KAFKA_VERSION from Maven Central) or set KAFKA_BROKERS to a reachable broker"
  fi
  local tmp="$KAFKA_LIBS.tmp.$$" mvnlog="$KAFKA_DIR/mvn-fetch.log" t0=$SECONDS
  mkdir -p "$KAFKA_DIR"
  rm -rf "$tmp"
  log "fetching Apache Kafka $KAFKA_VERSION jars with Maven (once; log: $mvnlog)"
  if ! mvn -B -q -Dstyle.color=never -f "$INFRA_DIR/kafka-pom.xml" -Dkafka.version="$KAFKA_VERSION" \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp" >"$mvnlog" 2>&1 9>&-; then
    rm -rf "$tmp"
    grep -E 'ERROR' "$mvnlog" | head -n 5 >&2 || true
    die "Maven could not fetch org.apache.kafka:kafka_2.13:$KAFKA_VERSION (see $mvnlog): check that Maven Central is reachable, or set VOLTDEPOT_KAFKA_VERSION to a published 4.x version"
  fi
  compgen -G "$tmp/kafka_2.13-*.jar" >/dev/null || die "Maven finished but no kafka_2.13 jar is in $tmp (see $mvnlog)"
  rm -rf "$KAFKA_LIBS"
  mv "$tmp" "$KAFKA_LIBS"
  date -u +%FT%TZ >"$KAFKA_LIBS/.complete"
  log "Kafka $KAFKA_VERSION jars ready in $KAFKA_LIBS ($(find "$KAFKA_LIBS" -name '*.jar' | wc -l) jars, $((SECONDS - t0)) s)"
}

# Compile the readiness probe once (needs javac; without it we rely on the
# ApiVersions check alone).
kafka_probe_class() {
  local src="$INFRA_DIR/KafkaReady.java" cls="$KAFKA_PROBE_DIR/KafkaReady.class"
  if [[ -f $cls && ! $src -nt $cls ]]; then
    printf '%s' "$KAFKA_PROBE_DIR"
    return 0
  fi
  have javac || return 1
  mkdir -p "$KAFKA_PROBE_DIR"
  javac -nowarn -d "$KAFKA_PROBE_DIR" -cp "$KAFKA_LIBS/*" "$src" >"$KAFKA_DIR/probe-javac.log" 2>&1 || {
    log "could not compile the Kafka readiness probe (see $KAFKA_DIR/probe-javac.log); using the protocol check only"
    return 1
  }
  printf '%s' "$KAFKA_PROBE_DIR"
}

kafka_java() { # main-class args...
  java -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
    -Dlog4j2.configurationFile="$INFRA_DIR/kafka-tools-log4j2.properties" \
    -cp "$KAFKA_LIBS/*${KAFKA_PROBE_CP:+:$KAFKA_PROBE_CP}" "$@"
}

kafka_write_config() {
  local ctl_port=$((KF_PORT + 1)) bind adv
  bind=$(bind_addr "$KF_HOST")
  adv=$(strip_brackets "$KF_HOST")
  [[ $adv == 0.0.0.0 || -z $adv ]] && adv=127.0.0.1
  [[ $bind == ::1 ]] && bind='[::1]' && adv='[::1]'
  mkdir -p "$KAFKA_DIR"
  sed -e "s#@BIND_HOST@#$bind#g" -e "s#@ADVERTISED_HOST@#$adv#g" -e "s#@BROKER_PORT@#$KF_PORT#g" \
    -e "s#@CONTROLLER_HOST@#$bind#g" -e "s#@CONTROLLER_PORT@#$ctl_port#g" -e "s#@DATA_DIR@#$KAFKA_DATA#g" \
    "$INFRA_DIR/kafka-server.properties.in" >"$KAFKA_CONF.tmp"
  mv "$KAFKA_CONF.tmp" "$KAFKA_CONF"
}

# Format the storage once; re-format when it belongs to another cluster id,
# another Kafka version, or a half-finished format.
kafka_format() {
  local cid_file="$KAFKA_DIR/cluster.id" stamp="$KAFKA_DATA/.infra-stamp" cid
  if [[ ! -s $cid_file ]]; then
    # a Kafka Uuid: 16 random bytes, URL-safe base64 without padding
    head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' >"$cid_file"
  fi
  cid=$(tr -d '[:space:]' <"$cid_file")
  if [[ -f $KAFKA_DATA/meta.properties ]]; then
    local have_cid have_node
    have_cid=$(sed -n 's/^cluster\.id=//p' "$KAFKA_DATA/meta.properties")
    have_node=$(sed -n 's/^node\.id=//p' "$KAFKA_DATA/meta.properties")
    if [[ $have_cid == "$cid" && $have_node == 1 && -f $KAFKA_DATA/bootstrap.checkpoint &&
      $(cat "$stamp" 2>/dev/null) == "$KAFKA_VERSION" ]]; then
      return 0
    fi
    log "Kafka data in $KAFKA_DATA is from another cluster/version (cluster.id=$have_cid, node.id=$have_node, made by $(cat "$stamp" 2>/dev/null || echo unknown)); wiping it (test data only)"
  fi
  rm -rf "$KAFKA_DATA"
  mkdir -p "$KAFKA_DATA"
  log "formatting Kafka storage in $KAFKA_DATA (cluster id $cid)"
  kafka_java kafka.tools.StorageTool format -t "$cid" -c "$KAFKA_CONF" >"$KAFKA_DIR/format.log" 2>&1 9>&- || {
    cat "$KAFKA_DIR/format.log" >&2
    die "formatting Kafka storage failed (see $KAFKA_DIR/format.log)"
  }
  printf '%s\n' "$KAFKA_VERSION" >"$stamp"
}

kafka_log_tail() {
  log "last lines of $KAFKA_LOGS/server.log:"
  tail -n 25 "$KAFKA_LOGS/server.log" >&2 2>/dev/null || true
  if [[ -s $KAFKA_LOGS/stdout.log ]]; then
    log "last lines of $KAFKA_LOGS/stdout.log:"
    tail -n 15 "$KAFKA_LOGS/stdout.log" >&2 || true
  fi
}

# Wait until the broker answers ApiVersions AND a metadata round trip.
kafka_wait_ready() { # timeout-seconds
  local deadline=$((SECONDS + $1)) probe_dir="" out pid
  probe_dir=$(kafka_probe_class) || probe_dir=""
  while ((SECONDS < deadline)); do
    if ! pid=$(kafka_pid); then
      kafka_log_tail
      die "the Kafka broker exited during start-up (logs in $KAFKA_LOGS)"
    fi
    if kafka_api_ping "$KF_HOST" "$KF_PORT"; then
      if [[ -z $probe_dir ]]; then
        sleep 2 # no probe: give the controller a moment to register the broker
        return 0
      fi
      if out=$(KAFKA_PROBE_CP=$probe_dir kafka_java KafkaReady "$(strip_brackets "$KF_HOST"):$KF_PORT" 2>&1); then
        log "Kafka ready: $out"
        return 0
      fi
    fi
    sleep 0.5
  done
  kafka_log_tail
  die "Kafka did not become ready at $KF_HOST:$KF_PORT within $1 s${out:+ (last probe: $out)}; logs in $KAFKA_LOGS. Retry with VOLTDEPOT_KAFKA_TIMEOUT=120, or set KAFKA_BROKERS to a reachable broker"
}

kafka_stop_own() {
  local pid i
  pid=$(kafka_pid) || {
    rm -f "$KAFKA_PIDFILE"
    return 1
  }
  log "stopping Kafka (pid $pid)"
  kill "$pid" 2>/dev/null || true
  for ((i = 0; i < 60; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "Kafka did not stop within 30 s; killing it"
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$KAFKA_PIDFILE"
}

KAFKA_EFF="" KAFKA_ORIGIN=""

ensure_kafka() {
  parse_kafka_brokers
  if kafka_reachable; then
    KAFKA_EFF=$CFG_KAFKA_BROKERS
    KAFKA_ORIGIN=$(kafka_origin)
    return
  fi
  is_local_host "$KF_HOST" ||
    die "Kafka is not reachable at $CFG_KAFKA_BROKERS (host $KF_HOST is not this machine): start it there or set KAFKA_BROKERS to a reachable broker"
  local ctl_port=$((KF_PORT + 1))
  ((ctl_port < 32768)) ||
    die "KAFKA_BROKERS port $KF_PORT: the broker started by infra.sh uses that port and the next one (controller) and both must be below 32768"
  if kafka_pid >/dev/null; then
    log "Kafka started earlier by infra.sh is running but not answering yet; waiting"
    if (kafka_wait_ready 20) 2>/dev/null; then
      KAFKA_EFF=$CFG_KAFKA_BROKERS
      KAFKA_ORIGIN=$(kafka_origin)
      return
    fi
    kafka_stop_own || true
  fi
  rm -f "$KAFKA_PIDFILE"
  local p
  for p in "$KF_PORT" "$ctl_port"; do
    if tcp_open "$KF_HOST" "$p"; then
      die "port $KF_HOST:$p is in use by a program that does not answer as a Kafka broker; free it or set KAFKA_BROKERS to another host:port (the broker uses that port and the next one)"
    fi
  done
  ensure_java
  kafka_fetch_libs
  kafka_write_config
  kafka_format
  mkdir -p "$KAFKA_LOGS"
  printf '%s\n' "$KAFKA_VERSION" >"$KAFKA_DIR/version"
  log "starting Kafka $KAFKA_VERSION (KRaft, single node) on $KF_HOST:$KF_PORT, controller port $ctl_port (logs: $KAFKA_LOGS)"
  local t0=$SECONDS
  # setsid: own session, so the broker outlives this shell; the pid file gets
  # the pid of the exec'ed java process.
  # shellcheck disable=SC2016 # expanded by the inner bash
  setsid bash -c 'echo $$ >"$0"; exec nohup "$@"' "$KAFKA_PIDFILE" \
    java "-Xmx$KAFKA_HEAP" "-Xms$KAFKA_HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
    -Dkafka.logs.dir="$KAFKA_LOGS" -Dlog4j2.configurationFile="$INFRA_DIR/kafka-log4j2.properties" \
    -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_CONF" \
    </dev/null >"$KAFKA_LOGS/stdout.log" 2>&1 9>&- &
  disown 2>/dev/null || true
  local i
  for ((i = 0; i < 50; i++)); do
    [[ -s $KAFKA_PIDFILE ]] && break
    sleep 0.1
  done
  kafka_wait_ready "$KAFKA_TIMEOUT"
  log "Kafka started in $((SECONDS - t0)) s"
  KAFKA_EFF=$CFG_KAFKA_BROKERS
  KAFKA_ORIGIN=$(kafka_origin)
}

# --------------------------------------------------------------------------
# commands
# --------------------------------------------------------------------------

env_quote() { # value -> shell word
  if [[ $1 =~ ^[A-Za-z0-9_./:@,%+=-]*$ ]]; then
    printf '%s' "$1"
  else
    printf "'%s'" "${1//\'/\'\\\'\'}"
  fi
}

write_env_file() {
  mkdir -p "$VAR_DIR"
  local tmp="$ENV_FILE.tmp.$$"
  {
    printf '# written by scripts/infra.sh up on %s; source it: . .var/infra.env\n' "$(date -u +%FT%TZ)"
    printf 'export DATABASE_URL=%s\n' "$(env_quote "$PG_URL")"
    printf 'export REDIS_URL=%s\n' "$(env_quote "$REDIS_URL_EFF")"
    [[ -n $KAFKA_EFF ]] && printf 'export KAFKA_BROKERS=%s\n' "$(env_quote "$KAFKA_EFF")"
  } >"$tmp"
  mv "$tmp" "$ENV_FILE"
}

cmd_up() {
  local want_kafka=0 arg
  is_true "${VOLTDEPOT_KAFKA:-0}" && want_kafka=1
  for arg in "$@"; do
    case "$arg" in
      --kafka) want_kafka=1 ;;
      --no-kafka) want_kafka=0 ;;
      *) die "unknown option for up: $arg (usage: infra.sh up [--kafka])" ;;
    esac
  done
  take_lock
  ensure_postgres
  ensure_redis
  if [[ $want_kafka -eq 1 ]]; then
    ensure_kafka
  else
    # not asked for, but report it when it is up anyway (e.g. from an earlier up --kafka)
    parse_kafka_brokers
    if kafka_reachable; then
      KAFKA_EFF=$CFG_KAFKA_BROKERS
      KAFKA_ORIGIN=$(kafka_origin)
    fi
  fi
  write_env_file
  printf '%-10s %-52s %s\n' postgres "$(redact "$PG_URL")" "$PG_ORIGIN"
  printf '%-10s %-52s %s\n' redis "$(redact "$REDIS_URL_EFF")" "$REDIS_ORIGIN"
  if [[ -n $KAFKA_EFF ]]; then
    printf '%-10s %-52s %s\n' kafka "$KAFKA_EFF" "$KAFKA_ORIGIN"
  else
    printf '%-10s %-52s %s\n' kafka "-" "not started (use: up --kafka)"
  fi
  printf 'settings written to %s (load them with: . %s)\n' "$ENV_FILE" "${ENV_FILE#"$ROOT"/}"
}

cmd_down() {
  take_lock
  local stopped=0 pid i
  if kafka_stop_own; then stopped=$((stopped + 1)); fi
  if pid=$(redis_pid); then
    log "stopping Redis (pid $pid)"
    kill "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -9 "$pid" 2>/dev/null || true
    stopped=$((stopped + 1))
  fi
  rm -f "$REDIS_DIR/redis.pid"
  if private_pg_pid >/dev/null; then
    local bindir osuser
    log "stopping the private PostgreSQL cluster in $PG_DIR"
    bindir=$(pg_bindir) || die "cannot find pg_ctl to stop the private PostgreSQL cluster in $PG_DIR"
    osuser=$(stat -c %U "$PG_DIR/data")
    (cd "$PG_DIR" && as_user "$osuser" "$bindir/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 60 stop >/dev/null 9>&-) ||
      die "pg_ctl stop failed for $PG_DIR/data"
    stopped=$((stopped + 1))
  fi
  rm -f "$ENV_FILE"
  if [[ $stopped -eq 0 ]]; then
    echo "nothing to stop: no server started by infra.sh is running (system services are left alone)"
  else
    echo "stopped $stopped server(s) started by infra.sh; system services are left alone; run up again to rewrite ${ENV_FILE#"$ROOT"/}"
  fi
}

cmd_status() {
  local all_ok=0 url origin
  parse_pg_url "$CFG_DATABASE_URL"
  url=$CFG_DATABASE_URL
  if ! pg_ready "$url" "$PG_HOST" "$PG_PORT"; then
    local private_url
    private_url=$(pg_url_for 127.0.0.1 "$PG_PRIVATE_PORT" "${PG_DB_RAW:-${PG_USER_RAW:-postgres}}")
    if private_pg_pid >/dev/null && pg_ready "$private_url" 127.0.0.1 "$PG_PRIVATE_PORT"; then
      url=$private_url
      parse_pg_url "$url"
    fi
  fi
  if pg_ready "$url" "$PG_HOST" "$PG_PORT"; then
    origin=$(pg_origin "$PG_HOST" "$PG_PORT")
    if have psql && ! psql "$url" -XAtq -c 'select 1' >/dev/null 2>&1; then
      origin+="; database $PG_DB missing or login refused (run: infra.sh up)"
    fi
    printf '%-10s %-13s %-52s %s\n' postgres reachable "$(redact "$url")" "$origin"
  else
    printf '%-10s %-13s %-52s %s\n' postgres "NOT reachable" "$(redact "$url")" "(run: bash scripts/infra.sh up)"
    all_ok=1
  fi

  parse_redis_url "$CFG_REDIS_URL"
  if redis_ping "$CFG_REDIS_URL" >/dev/null; then
    printf '%-10s %-13s %-52s %s\n' redis reachable "$(redact "$CFG_REDIS_URL")" "$(redis_origin)"
  else
    printf '%-10s %-13s %-52s %s\n' redis "NOT reachable" "$(redact "$CFG_REDIS_URL")" "(run: bash scripts/infra.sh up)"
    all_ok=1
  fi

  parse_kafka_brokers
  if kafka_reachable; then
    printf '%-10s %-13s %-52s %s\n' kafka reachable "$CFG_KAFKA_BROKERS" "$(kafka_origin)"
  else
    local note="(optional; run: bash scripts/infra.sh up --kafka)"
    kafka_pid >/dev/null && note="(infra.sh broker process is running but not answering; see $KAFKA_LOGS)"
    printf '%-10s %-13s %-52s %s\n' kafka "NOT reachable" "$CFG_KAFKA_BROKERS" "$note"
  fi
  return "$all_ok"
}

usage() {
  cat <<'EOF'
usage: bash scripts/infra.sh up [--kafka] | down | status

  up [--kafka]  make PostgreSQL and Redis (and Kafka with --kafka or VOLTDEPOT_KAFKA=1)
                reachable, create the database, write .var/infra.env
  down          stop only the servers this script started (system services stay up)
  status        one line per service; exit 1 if PostgreSQL or Redis is not reachable

env: DATABASE_URL (postgres://postgres@127.0.0.1:5432/voltdepot), REDIS_URL
(redis://127.0.0.1:6379), KAFKA_BROKERS (127.0.0.1:19092), VOLTDEPOT_ALLOW_APT
(1 when root), VOLTDEPOT_KAFKA_VERSION (4.1.2); see docs/infrastructure.md
EOF
}

main() {
  local cmd=${1:-}
  [[ $# -gt 0 ]] && shift
  case "$cmd" in
    up) cmd_up "$@" ;;
    down) cmd_down ;;
    status) cmd_status ;;
    -h | --help | help) usage ;;
    *)
      usage >&2
      exit 2
      ;;
  esac
}

main "$@"
