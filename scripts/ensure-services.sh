#!/usr/bin/env bash
# Makes sure the real servers and tools the test suite talks to are running and installed.
# Idempotent: starts only what is not running, installs only what is missing (Debian packages, as root).
set -euo pipefail

log() { printf '[ensure-services] %s\n' "$*"; }

wait_for() { # description, command...
  local what=$1; shift
  for _ in $(seq 1 60); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  log "$what did not become ready"; return 1
}

apt_updated=0
apt_install() {
  if [ "$(id -u)" != 0 ]; then log "missing $*; install it as root (apt-get install -y $*)"; return 1; fi
  if [ $apt_updated = 0 ]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# PostgreSQL (framework database of the tests; each test file creates and drops its own database).
command -v pg_ctlcluster >/dev/null || apt_install postgresql postgresql-client
if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  log "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi
wait_for PostgreSQL pg_isready -h 127.0.0.1 -p 5432 -q
# Change capture reads the WAL through logical replication slots (one per CDC table).
pg_setting() { psql -h 127.0.0.1 -U postgres -Atqc "show $1"; }
if [ "$(pg_setting wal_level)" != logical ] || [ "$(pg_setting max_replication_slots)" -lt 40 ] || [ "$(pg_setting max_wal_senders)" -lt 40 ]; then
  log "configuring PostgreSQL for logical replication"
  psql -h 127.0.0.1 -U postgres -qc "alter system set wal_level = logical" -c "alter system set max_replication_slots = 40" -c "alter system set max_wal_senders = 40"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main restart
  wait_for PostgreSQL pg_isready -h 127.0.0.1 -p 5432 -q
fi

# Redis (shared state).
command -v redis-server >/dev/null || apt_install redis-server
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  log "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
wait_for Redis redis-cli -h 127.0.0.1 -p 6379 ping

# MariaDB (a source and destination of the connector tests).
command -v mariadbd >/dev/null || apt_install mariadb-server
if ! mariadb-admin -h 127.0.0.1 -u root ping >/dev/null 2>&1; then
  log "starting MariaDB"
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
fi
wait_for MariaDB mariadb-admin -h 127.0.0.1 -u root ping
# Change capture reads MariaDB's row-based binlog.
if [ "$(mariadb -h 127.0.0.1 -u root -Nse 'select @@log_bin')" != 1 ]; then
  log "configuring MariaDB's row-based binlog"
  # my.cnf itself: on these machines it includes no conf.d directory.
  grep -q '^log_bin' /etc/mysql/my.cnf || printf '\n[mariadbd]\nlog_bin = mariadb-bin\nbinlog_format = ROW\nbinlog_row_image = FULL\nserver_id = 1\n' >> /etc/mysql/my.cnf
  mariadb-admin -h 127.0.0.1 -u root shutdown
  for _ in $(seq 1 60); do pgrep -x mariadbd >/dev/null || break; sleep 0.5; done
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
  wait_for MariaDB mariadb-admin -h 127.0.0.1 -u root ping
fi

# OpenSSH's sshd: the SFTP tests start their own on a free port.
[ -x /usr/sbin/sshd ] || apt_install openssh-server

# OpenLDAP's slapd: the LDAP login tests start their own with a seeded directory.
[ -x /usr/sbin/slapd ] && command -v ldapadd >/dev/null || apt_install slapd ldap-utils

# Chromium: the web UI's end-to-end tests drive it with playwright-core.
[ -x /usr/bin/chromium ] || apt_install chromium

# promtool checks the /metrics exposition.
command -v promtool >/dev/null || apt_install prometheus

# Message brokers: the streams tests publish to and consume from them (RabbitMQ, NATS with JetStream, Mosquitto).
command -v rabbitmq-server >/dev/null || apt_install rabbitmq-server
if ! (exec 3<>/dev/tcp/127.0.0.1/5672) 2>/dev/null; then
  log "starting RabbitMQ"
  rabbitmq-server -detached
fi
wait_for RabbitMQ bash -c 'exec 3<>/dev/tcp/127.0.0.1/5672'
[ -x /usr/sbin/nats-server ] || apt_install nats-server
if ! (exec 3<>/dev/tcp/127.0.0.1/4222) 2>/dev/null; then
  log "starting NATS with JetStream"
  mkdir -p /var/lib/nats-server
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
fi
wait_for NATS bash -c 'exec 3<>/dev/tcp/127.0.0.1/4222'
command -v mosquitto >/dev/null || apt_install mosquitto
if ! (exec 3<>/dev/tcp/127.0.0.1/1883) 2>/dev/null; then
  log "starting Mosquitto"
  mosquitto -d -c /etc/mosquitto/mosquitto.conf
fi
wait_for Mosquitto bash -c 'exec 3<>/dev/tcp/127.0.0.1/1883'
# rsyslog with its GnuTLS driver: the audit forwarding tests start their own on free ports (TCP and TLS).
[ -x /usr/sbin/rsyslogd ] && compgen -G '/usr/lib/*/rsyslog/lmnsd_gtls.so' >/dev/null || apt_install rsyslog rsyslog-gnutls
# dovecot's IMAP server: the e-mail feed tests start their own on a free port (a passwd-file user, maildirs in a temporary folder).
[ -x /usr/sbin/dovecot ] && [ -e /usr/lib/dovecot/imap ] || apt_install dovecot-imapd

log "services ready"
