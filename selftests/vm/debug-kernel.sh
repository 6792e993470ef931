#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the debug kernel of the matrix, once, and install it into the root
# as the other kernels are (image and modules under /usr/lib/modules/REL,
# the build tree as /usr/src/linux-headers-REL). Prints its release.
#
# Debian's stock kernels have no KASAN or lockdep. This one is Debian's own
# source of the newest line (linux-source-X.Y from trixie-backports) with a
# small configuration for the test guests (x86_64 defconfig less what the
# guests have no use for: display DRM, sound, USB, wireless and wired
# network drivers, netfilter, NFS, ATA, MD, IPv6; kvm_guest; what the
# lifetime parts use, the accelerator's DRM core, scheduler, shmem
# helpers, drm_gpuvm and vgem among them) and the debug options: KASAN, KFENCE,
# lockdep (PROVE_LOCKING, PROVE_RCU), DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS,
# DEBUG_LIST; KCOV for the fuzzer's coverage. Cached with the root; an
# edit of this script, or BPFDRV_DEBUG_REBUILD=1, builds it again
# (incrementally).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

newest=$(BPFDRV_KERNELS=newest "$(dirname "$0")/kernels.sh") || exit 1
line=${newest%%.*}.$(cut -d. -f2 <<<"$newest")	# 7.3.4+deb13-amd64: 7.3
rel_file=$BPFDRV_ROOT/usr/src/bpfdrv-debug-$line.release
# built by this script as it is now: an edit (its configuration) rebuilds
script_sum=$(sha256sum "$0" | cut -c1-16)
sum_file=$BPFDRV_ROOT/usr/src/bpfdrv-debug-$line.script
if [ -f "$rel_file" ] && [ -z "${BPFDRV_DEBUG_REBUILD:-}" ] &&
	[ "$(cat "$sum_file" 2>/dev/null)" = "$script_sum" ]; then
	rel=$(cat "$rel_file")
	[ -n "$(kernel_image "$rel")" ] && { echo "$rel"; exit 0; }
fi

log "building the debug kernel from Debian's linux-source-$line (KASAN, lockdep; tens of minutes)"
start=$SECONDS
in_root /bin/bash -c '
	set -euo pipefail
	line=$1
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q --no-install-recommends "linux-source-$line" bc bison \
		flex libssl-dev libelf-dev dwarves cpio rsync python3 >/dev/null
	src=/usr/src/bpfdrv-debug-src obj=/usr/src/bpfdrv-debug-build
	# an interrupted build goes on where it stopped
	if [ ! -f "$src/.bpfdrv-unpacked-$line" ]; then
		rm -rf "$src" "$obj"
		mkdir -p "$src" "$obj"
		tar -xaf /usr/src/linux-source-$line.tar.* -C "$src" --strip-components=1
		touch "$src/.bpfdrv-unpacked-$line"
	fi
	cd "$src"
	# drm_gpuvm (accelerator VMs) has no prompt and only nouveau and xe
	# select it on x86: a prompt spares building either
	sed -i "/^config DRM_GPUVM\$/{n;s/^\ttristate\$/\ttristate \"DRM GPU VA manager\"/}" \
		drivers/gpu/drm/Kconfig
	make -s O="$obj" x86_64_defconfig
	make -s O="$obj" kvm_guest.config >/dev/null
	cat >"$obj/bpfdrv.config" <<EOF
CONFIG_LOCALVERSION="-bpfdrv-debug"
# CONFIG_LOCALVERSION_AUTO is not set
CONFIG_MODULES=y
CONFIG_MODULE_UNLOAD=y
# CONFIG_MODULE_SIG is not set
CONFIG_BPF=y
CONFIG_BPF_SYSCALL=y
CONFIG_BPF_JIT=y
CONFIG_BPF_JIT_ALWAYS_ON=y
CONFIG_DEBUG_INFO_DWARF5=y
CONFIG_DEBUG_INFO_BTF=y
CONFIG_DEBUG_INFO_BTF_MODULES=y
CONFIG_FTRACE=y
CONFIG_FUNCTION_TRACER=y
CONFIG_KPROBES=y
CONFIG_KASAN=y
CONFIG_KASAN_GENERIC=y
CONFIG_KASAN_INLINE=y
CONFIG_KFENCE=y
CONFIG_PROVE_LOCKING=y
CONFIG_PROVE_RCU=y
CONFIG_DEBUG_ATOMIC_SLEEP=y
CONFIG_DEBUG_OBJECTS=y
CONFIG_DEBUG_OBJECTS_FREE=y
CONFIG_DEBUG_OBJECTS_TIMERS=y
CONFIG_DEBUG_OBJECTS_WORK=y
CONFIG_DEBUG_OBJECTS_RCU_HEAD=y
CONFIG_DEBUG_LIST=y
CONFIG_SOFTLOCKUP_DETECTOR=y
CONFIG_DETECT_HUNG_TASK=y
# coverage for the system-call fuzzer (fuzz_sys -k): per-thread PCs
CONFIG_KCOV=y
CONFIG_KCOV_INSTRUMENT_ALL=y
CONFIG_PCI=y
CONFIG_PCI_MSI=y
CONFIG_IOMMU_SUPPORT=y
CONFIG_INTEL_IOMMU=y
CONFIG_INTEL_IOMMU_DEFAULT_ON=y
CONFIG_IRQ_REMAP=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_CONSOLE=y
CONFIG_NET_9P=y
CONFIG_NET_9P_VIRTIO=y
CONFIG_9P_FS=y
CONFIG_9P_FS_POSIX_ACL=y
CONFIG_FUSE_FS=y
CONFIG_VIRTIO_FS=y
CONFIG_OVERLAY_FS=y
CONFIG_TMPFS=y
CONFIG_DEVTMPFS=y
CONFIG_DEVTMPFS_MOUNT=y
CONFIG_CONFIGFS_FS=y
CONFIG_I2C=y
CONFIG_I2C_CHARDEV=y
CONFIG_I2C_I801=m
CONFIG_I2C_STUB=m
CONFIG_SPI=y
CONFIG_SPI_MASTER=y
CONFIG_SPI_SPIDEV=m
CONFIG_GPIOLIB=y
CONFIG_GPIO_CDEV=y
CONFIG_GPIO_SIM=m
# gpio_loopback (the GPIO tests) needs GPIOLIB_IRQCHIP: this selects it
CONFIG_GPIO_GRANITERAPIDS=m
CONFIG_NEW_LEDS=y
CONFIG_LEDS_CLASS=y
CONFIG_LEDS_TRIGGERS=y
CONFIG_LEDS_TRIGGER_TIMER=y
CONFIG_INPUT_EVDEV=y
CONFIG_HWMON=y
CONFIG_WATCHDOG=y
CONFIG_I6300ESB_WDT=y
# the accelerator class: the DRM core, accel nodes, vgem (PRIME), and
# gpu_sched with the shmem helpers, which only drivers select: amdxdna
# is the smallest x86 driver that does
CONFIG_DRM=m
CONFIG_DRM_ACCEL=y
CONFIG_DRM_VGEM=m
CONFIG_AMD_IOMMU=y
CONFIG_DRM_ACCEL_AMDXDNA=m
CONFIG_DRM_GPUVM=m
CONFIG_MEMCG=y
# CONFIG_SOUND is not set
# CONFIG_USB_SUPPORT is not set
# CONFIG_WIRELESS is not set
# CONFIG_WLAN is not set
# CONFIG_ETHERNET is not set
# CONFIG_NETFILTER is not set
# CONFIG_NFS_FS is not set
# CONFIG_AGP is not set
# CONFIG_ATA is not set
# CONFIG_MD is not set
# CONFIG_IPV6 is not set
EOF
	scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "$obj/bpfdrv.config" >/dev/null
	make -s O="$obj" olddefconfig
	for opt in KASAN PROVE_LOCKING DEBUG_INFO_BTF_MODULES DEBUG_OBJECTS MEMCG KCOV; do
		grep -q "^CONFIG_$opt=y" "$obj/.config" || { echo "CONFIG_$opt did not stay on" >&2; exit 1; }
	done
	for opt in DRM_SCHED DRM_GEM_SHMEM_HELPER DRM_VGEM DRM_GPUVM; do
		grep -q "^CONFIG_$opt=m" "$obj/.config" || { echo "CONFIG_$opt did not stay on" >&2; exit 1; }
	done
	make -s O="$obj" -j"$(nproc)" bzImage modules
	rel=$(make -s O="$obj" kernelrelease)
	make -s O="$obj" modules_install INSTALL_MOD_STRIP=1 >/dev/null
	cp "$obj/arch/x86/boot/bzImage" "/usr/lib/modules/$rel/vmlinuz"
	ln -sfn "$obj" "/usr/src/linux-headers-$rel"
	depmod "$rel"
	echo "$rel" >"/usr/src/bpfdrv-debug-$line.release"
' bash "$line" >&2 || die "the debug kernel did not build"
echo "$script_sum" >"$sum_file"
rel=$(cat "$rel_file")
log "debug kernel $rel built in $(((SECONDS - start) / 60)) min"
echo "$rel"
