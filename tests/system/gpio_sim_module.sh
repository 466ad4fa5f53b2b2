#!/bin/bash
# Builds the kernel's GPIO simulator (drivers/gpio/gpio-sim.c with kernel/irq/irq_sim.c)
# as one out-of-tree module for Debian's 6.1 amd64 kernel, which ships neither
# (CONFIG_GPIO_SIM and CONFIG_IRQ_SIM are off). The sources come from Debian's
# linux-source package at build time; nothing of them is kept in this repository.
#
#     tests/system/gpio_sim_module.sh OUT_DIR      # writes OUT_DIR/gpio-sim-oot.ko
#
# One change is needed: irq_sim.c calls irq_to_desc(), which 6.1 does not export
# to modules (modpost: "irq_to_desc" undefined); generic_handle_irq(), exported,
# runs the same handler (handle_simple_irq, which irq_sim sets for its interrupts).
# Checked on 2026-11-24: builds against linux-headers-6.1.0-50-amd64; loading it,
# configuring a chip through configfs and driving it from the test are not wired
# into run.py yet (see the README's system test section).
set -euo pipefail
out=${1:?usage: gpio_sim_module.sh OUT_DIR}
headers=${HEADERS:-$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -1)}
source_tar=$(ls /usr/src/linux-source-6.1.tar.xz 2>/dev/null || true)
if [ -z "$headers" ] || [ -z "$source_tar" ]; then
    [ "$(id -u)" = 0 ] || { echo "gpio-sim: run as root to apt-get install linux-source-6.1 linux-headers-amd64" >&2; exit 2; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q linux-source-6.1 linux-headers-amd64
    headers=$(ls -d /usr/src/linux-headers-*-amd64 | sort -V | tail -1)
    source_tar=/usr/src/linux-source-6.1.tar.xz
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xf "$source_tar" -C "$work" --strip-components=1 \
    linux-source-6.1/drivers/gpio/gpio-sim.c linux-source-6.1/drivers/gpio/gpiolib.h \
    linux-source-6.1/kernel/irq/irq_sim.c
mkdir "$work/mod"
cp "$work/drivers/gpio/gpio-sim.c" "$work/drivers/gpio/gpiolib.h" "$work/kernel/irq/irq_sim.c" "$work/mod/"
grep -q 'handle_simple_irq(irq_to_desc(irqnum));' "$work/mod/irq_sim.c" \
    || { echo "gpio-sim: irq_sim.c changed upstream; look again at its irq_to_desc() call" >&2; exit 1; }
sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$work/mod/irq_sim.c"
printf 'obj-m += gpio-sim-oot.o\ngpio-sim-oot-y := gpio-sim.o irq_sim.o\n' > "$work/mod/Kbuild"
make -s -C "$headers" M="$work/mod" modules
mkdir -p "$out"
cp "$work/mod/gpio-sim-oot.ko" "$out/"
echo "gpio-sim: $out/gpio-sim-oot.ko for $(basename "$headers" | sed 's/linux-headers-//')"
