#!/bin/bash
# Builds, for a Debian amd64 kernel (bookworm's 6.1, trixie's 6.12), the two modules
# the system test needs and the kernel does not ship, each out of tree from Debian's
# linux-source package of that version at build time (nothing of the sources is kept
# in this repository):
#
# - the GPIO simulator (drivers/gpio/gpio-sim.c with kernel/irq/irq_sim.c, as one
#   module: CONFIG_GPIO_SIM and CONFIG_IRQ_SIM are off). One change is needed:
#   irq_sim.c calls irq_to_desc(), which the kernel does not export to modules
#   (modpost: "irq_to_desc" undefined); generic_handle_irq(), exported, runs the same
#   handler (handle_simple_irq, which irq_sim sets for its interrupts);
# - the TCA9548A's driver, drivers/i2c/muxes/i2c-mux-pca954x.c, unchanged
#   (CONFIG_I2C_MUX_PCA954x is off; the i2c-mux core it needs is a module).
#
#     tests/system/kernel_modules.sh OUT_DIR   # writes OUT_DIR/gpio-sim-oot.ko, i2c-mux-pca954x.ko
#
# HEADERS names the kernel's headers (default: the newest in /usr/src); the source
# is linux-source-<its major.minor>. Checked on 2026-11-24 (gpio-sim) and 2026-11-27
# (pca954x) against linux-headers-6.1.0-50/-56-amd64, and on 2026-11-27 against
# trixie's linux-headers-RELEASE.
set -euo pipefail
out=${1:?usage: kernel_modules.sh OUT_DIR}
headers=${HEADERS:-$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -1)}
if [ -z "$headers" ]; then
    [ "$(id -u)" = 0 ] || { echo "kernel modules: run as root to apt-get install linux-headers-amd64" >&2; exit 2; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q linux-headers-amd64
    headers=$(ls -d /usr/src/linux-headers-*-amd64 | sort -V | tail -1)
fi
version=$(basename "$headers" | sed -E 's/^linux-headers-([0-9]+\.[0-9]+).*/\1/')
source_tar=/usr/src/linux-source-$version.tar.xz
if [ ! -f "$source_tar" ]; then
    [ "$(id -u)" = 0 ] || { echo "kernel modules: run as root to apt-get install linux-source-$version" >&2; exit 2; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "linux-source-$version"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xf "$source_tar" -C "$work" --strip-components=1 \
    "linux-source-$version/drivers/gpio/gpio-sim.c" "linux-source-$version/drivers/gpio/gpiolib.h" \
    "linux-source-$version/kernel/irq/irq_sim.c" "linux-source-$version/drivers/i2c/muxes/i2c-mux-pca954x.c"
mkdir "$work/mod" "$work/mux"
cp "$work/drivers/gpio/gpio-sim.c" "$work/drivers/gpio/gpiolib.h" "$work/kernel/irq/irq_sim.c" "$work/mod/"
grep -q 'handle_simple_irq(irq_to_desc(irqnum));' "$work/mod/irq_sim.c" \
    || { echo "gpio-sim: irq_sim.c changed upstream; look again at its irq_to_desc() call" >&2; exit 1; }
sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$work/mod/irq_sim.c"
printf 'obj-m += gpio-sim-oot.o\ngpio-sim-oot-y := gpio-sim.o irq_sim.o\n' > "$work/mod/Kbuild"
make -s -C "$headers" M="$work/mod" modules
cp "$work/drivers/i2c/muxes/i2c-mux-pca954x.c" "$work/mux/"
printf 'obj-m += i2c-mux-pca954x.o\n' > "$work/mux/Kbuild"
make -s -C "$headers" M="$work/mux" modules
mkdir -p "$out"
cp "$work/mod/gpio-sim-oot.ko" "$work/mux/i2c-mux-pca954x.ko" "$out/"
echo "kernel modules: $out/gpio-sim-oot.ko, $out/i2c-mux-pca954x.ko for $(basename "$headers" | sed 's/linux-headers-//')"
