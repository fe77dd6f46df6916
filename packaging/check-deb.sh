#!/bin/sh
# check-deb.sh: check zertzboard's Debian packages after "make deb".
#
#   sh packaging/check-deb.sh [dist/zertzboard_VERSION_ARCH.deb ...]
#
# With dpkg-deb (Debian's dpkg package, required) it checks each package's
# name, control fields, file list, modes and owners, conffiles, md5sums and
# maintainer scripts, and that /usr/bin/zertzboard is an ELF executable for
# the package's architecture (read from the header bytes with od, so
# "file" is not needed). With qemu-user (qemu-aarch64, qemu-arm) or on a
# matching machine it runs "zertzboard --version" and compares it with the
# package's version. With lintian it runs lintian and fails on errors
# (warnings are shown; the accepted tags are overridden, with reasons, in
# packaging/lintian-overrides). Exit status: 0 when every package passes.
# CHECK_DEB_RUN=0 and CHECK_DEB_LINTIAN=0 skip those two steps (the Go
# tests of tools/mkdeb use them on packages holding a fake binary).
set -eu

if [ $# -eq 0 ]; then
	set -- dist/zertzboard_*.deb
fi
if ! command -v dpkg-deb >/dev/null 2>&1; then
	echo "check-deb: dpkg-deb not found: install Debian's dpkg package (apt-get install dpkg)" >&2
	exit 1
fi

failures=0
fail() {
	echo "check-deb: FAIL: $deb: $*" >&2
	failures=$((failures + 1))
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# elf_header FILE: "CLASS DATA MACHINE" from the ELF header bytes: EI_CLASS
# (1 = 32-bit, 2 = 64-bit), EI_DATA (1 = little-endian) and e_machine
# (little-endian 16 bits at offset 18: 183 = AArch64, 40 = ARM, 62 = x86-64).
elf_header() {
	magic=$(od -An -tx1 -N4 "$1" | tr -d ' \n')
	if [ "$magic" != "7f454c46" ]; then
		echo "not-elf"
		return
	fi
	set -- $(od -An -tu1 -j4 -N2 "$1") $(od -An -tu1 -j18 -N2 "$1")
	echo "$1 $2 $(($3 + 256 * $4))"
}

checked=0
for deb in "$@"; do
	if [ ! -f "$deb" ]; then
		echo "check-deb: $deb: no such package (run make deb first)" >&2
		failures=$((failures + 1))
		continue
	fi
	echo "== $deb"
	checked=$((checked + 1))
	dpkg-deb --info "$deb"

	# Control fields.
	pkg=$(dpkg-deb --field "$deb" Package)
	ver=$(dpkg-deb --field "$deb" Version)
	arch=$(dpkg-deb --field "$deb" Architecture)
	[ "$pkg" = zertzboard ] || fail "Package is '$pkg', want zertzboard"
	if command -v dpkg >/dev/null 2>&1; then
		dpkg --validate-version "$ver" || fail "Version '$ver' is not a valid Debian version"
	fi
	case "$arch" in
	arm64) want_elf="2 1 183" qemu=qemu-aarch64 host=aarch64 ;;
	armhf) want_elf="1 1 40" qemu=qemu-arm host=armv7l ;;
	*) fail "Architecture '$arch', want arm64 or armhf"; continue ;;
	esac
	[ "$(basename "$deb")" = "zertzboard_${ver}_${arch}.deb" ] ||
		fail "file name, want zertzboard_${ver}_${arch}.deb"
	for field in Maintainer Installed-Size Depends Section Priority Homepage Description; do
		[ -n "$(dpkg-deb --field "$deb" "$field")" ] || fail "no $field field"
	done

	# Files, modes and owners.
	dpkg-deb --contents "$deb" | awk '{print $1, $2, $6}' >"$work/contents"
	for want in \
		"-rwxr-xr-x root/root ./usr/bin/zertzboard" \
		"-rw-r--r-- root/root ./usr/lib/systemd/system/zertzboard.service" \
		"-rw-r----- root/root ./etc/zertzboard/zertzboard.conf" \
		"-rw-r--r-- root/root ./etc/zertzboard/wiring" \
		"-rw-r--r-- root/root ./usr/share/doc/zertzboard/README.Debian" \
		"-rw-r--r-- root/root ./usr/share/doc/zertzboard/examples/config.txt" \
		"-rw-r--r-- root/root ./usr/share/doc/zertzboard/copyright" \
		"-rw-r--r-- root/root ./usr/share/doc/zertzboard/changelog.gz" \
		"-rw-r--r-- root/root ./usr/share/man/man1/zertzboard.1.gz"; do
		grep -qxF -- "$want" "$work/contents" || fail "missing: $want"
	done
	if awk '$2 != "root/root"' "$work/contents" | grep -q .; then
		fail "entries not owned by root/root: $(awk '$2 != "root/root"' "$work/contents" | tr '\n' ' ')"
	fi

	# Control members: conffiles, maintainer scripts, md5sums.
	rm -rf "$work/root" "$work/control"
	dpkg-deb --extract "$deb" "$work/root"
	dpkg-deb --control "$deb" "$work/control"
	printf '/etc/zertzboard/wiring\n/etc/zertzboard/zertzboard.conf\n' | cmp -s - "$work/control/conffiles" ||
		fail "conffiles: $(tr '\n' ' ' <"$work/control/conffiles")"
	for script in postinst prerm postrm; do
		if [ ! -x "$work/control/$script" ]; then
			fail "no executable $script"
		elif ! sh -n "$work/control/$script"; then
			fail "$script: shell syntax error"
		fi
	done
	grep -q 'adduser --quiet --system' "$work/control/postinst" || fail "postinst does not create the system user"
	grep -v '^[[:space:]]*#' "$work/control/postinst" |
		grep -q 'systemctl enable\|systemctl start\|deb-systemd-invoke start\|deb-systemd-helper enable' &&
		fail "postinst starts or enables the service"
	(cd "$work/root" && md5sum --quiet -c "$work/control/md5sums") || fail "md5sums do not match the files"

	# The packaged configuration keeps finished games on disk, in the
	# state directory (a restart must not lose an event's results).
	grep -Eq '^results[[:space:]]*=[[:space:]]*/var/lib/zertzboard/results([[:space:]]|$)' "$work/root/etc/zertzboard/zertzboard.conf" ||
		fail "etc/zertzboard/zertzboard.conf does not keep results in /var/lib/zertzboard/results"

	# The unit runs the packaged binary with the packaged configuration.
	unit="$work/root/usr/lib/systemd/system/zertzboard.service"
	grep -qx 'ExecStart=/usr/bin/zertzboard run --config /etc/zertzboard/zertzboard.conf' "$unit" ||
		fail "unit's ExecStart is not /usr/bin/zertzboard run --config /etc/zertzboard/zertzboard.conf"
	grep -qx 'User=zertzboard' "$unit" || fail "unit does not run as zertzboard"

	# The binary is for this architecture.
	bin="$work/root/usr/bin/zertzboard"
	got_elf=$(elf_header "$bin")
	if [ "$got_elf" != "$want_elf" ]; then
		fail "usr/bin/zertzboard: ELF class/data/machine '$got_elf', want '$want_elf' for $arch"
	else
		echo "check-deb: usr/bin/zertzboard: ELF $got_elf (class, little-endian, machine) = $arch"
	fi

	# Its version is the package's.
	runner=""
	if [ "${CHECK_DEB_RUN:-1}" = 0 ]; then
		runner=""
	elif [ "$(uname -m)" = "$host" ] || { [ "$arch" = armhf ] && [ "$(uname -m)" = aarch64 ]; }; then
		runner=" "
	elif command -v "$qemu" >/dev/null 2>&1; then
		runner="$qemu"
	fi
	if [ -n "$runner" ]; then
		out=$($runner "$bin" --version 2>&1) || fail "zertzboard --version failed: $out"
		case "$out" in
		"zertzboard $ver ("*) echo "check-deb: $out" ;;
		*) fail "zertzboard --version says '$out', want version $ver" ;;
		esac
	else
		echo "check-deb: skipped running zertzboard --version: CHECK_DEB_RUN=0, or no $qemu (Debian's qemu-user) and not an $arch machine"
	fi

	# lintian, when installed: errors fail, the rest is shown.
	if [ "${CHECK_DEB_LINTIAN:-1}" = 0 ]; then
		echo "check-deb: skipped lintian: CHECK_DEB_LINTIAN=0"
	elif command -v lintian >/dev/null 2>&1; then
		lintian -I --pedantic "$deb" >"$work/lintian" 2>&1 || true
		grep -v 'running with root privileges' "$work/lintian" || true
		if grep -q '^E: ' "$work/lintian"; then
			fail "lintian reports errors (above)"
		else
			echo "check-deb: lintian: no errors"
		fi
	else
		echo "check-deb: skipped lintian: not installed (apt-get install --no-install-recommends lintian)"
	fi
done

if [ "$failures" -gt 0 ]; then
	echo "check-deb: $failures problem(s) in $checked package(s)" >&2
	exit 1
fi
echo "check-deb: $checked package(s) OK"
