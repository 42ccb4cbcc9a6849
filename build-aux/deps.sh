# Sourced by build-aux/run and build-aux/test: installs the Debian 12 packages that are missing.

nearby_build_packages="
  meson ninja-build pkg-config gcc gettext
  libglib2.0-dev libglib2.0-bin libgtk-4-dev libadwaita-1-dev libsoup-3.0-dev
  libsqlite3-dev libxml2-dev libjson-glib-dev nettle-dev
  libgdk-pixbuf-2.0-dev libpng-dev libsystemd-dev
  desktop-file-utils appstream glib-networking
  bash-completion
"
nearby_test_packages="
  dbus python3 python3-dbus python3-dbusmock python3-gi gir1.2-glib-2.0
  python3-bleak python3-yaml python3-cryptography
  xvfb xauth at-spi2-core python3-pyatspi
  clang libclang-rt-14-dev
  imagemagick
  curl
  valgrind
  flatpak-builder
  mandoc
  tshark
"
# What build-aux/runtime-libs needs to build the Flatpak runtime's libxml2 (CMake) and libsoup.
nearby_runtime_packages="
  cmake xz-utils libnghttp2-dev libpsl-dev zlib1g-dev
"

nearby_missing_packages () {
  missing=""
  for package in "$@"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
    [ "$status" = "installed" ] || missing="$missing $package"
  done
  echo "$missing"
}

nearby_install_packages () {
  # shellcheck disable=SC2086 # word splitting of the package lists is wanted
  missing=$(nearby_missing_packages $*)
  [ -z "$missing" ] && return 0

  echo "Installing:$missing"
  if [ "$(id -u)" -eq 0 ]; then
    sudo_cmd=""
  elif command -v sudo >/dev/null 2>&1; then
    sudo_cmd="sudo"
  else
    echo "These Debian packages are missing and I cannot install them without root or sudo:$missing" >&2
    exit 1
  fi
  $sudo_cmd apt-get update -qq
  # tshark's package asks whether non-root users may capture: no, and without asking.
  echo "wireshark-common wireshark-common/install-setuid boolean false" \
    | $sudo_cmd debconf-set-selections
  # shellcheck disable=SC2086
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
}

nearby_configure () {
  build_dir=$1
  shift
  if [ -f "$build_dir/build.ninja" ]; then
    meson configure "$build_dir" "$@" >/dev/null
  else
    meson setup "$build_dir" "$@"
  fi
}
