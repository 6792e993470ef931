// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace -g nvidia: the names of NVIDIA's ioctls and device nodes.
 * The numbers are NVIDIA's own (nvidia/nv_ioctl_numbers.h): each name
 * below is the macro's name, so a table and the header cannot disagree.
 */
#include <stdio.h>
#include <linux/ioctl.h>

#include "nvidia/nv_ioctl_numbers.h"
#include "nvidia.h"

struct nv_name {
	unsigned int nr;
	const char *name;
};

#define NV(x)	{ x, #x }

/* nvidia.ko: the escape code is the ioctl's number (_IOC_NR) */
static const struct nv_name nv_escapes[] = {
	NV(NV_ESC_RM_ALLOC_MEMORY), NV(NV_ESC_RM_ALLOC_OBJECT), NV(NV_ESC_RM_FREE),
	NV(NV_ESC_RM_CONTROL), NV(NV_ESC_RM_ALLOC), NV(NV_ESC_RM_CONFIG_GET),
	NV(NV_ESC_RM_CONFIG_SET), NV(NV_ESC_RM_DUP_OBJECT), NV(NV_ESC_RM_SHARE),
	NV(NV_ESC_RM_CONFIG_GET_EX), NV(NV_ESC_RM_CONFIG_SET_EX),
	NV(NV_ESC_RM_I2C_ACCESS), NV(NV_ESC_RM_IDLE_CHANNELS),
	NV(NV_ESC_RM_VID_HEAP_CONTROL), NV(NV_ESC_RM_ACCESS_REGISTRY),
	NV(NV_ESC_RM_MAP_MEMORY), NV(NV_ESC_RM_UNMAP_MEMORY),
	NV(NV_ESC_RM_GET_EVENT_DATA), NV(NV_ESC_RM_ALLOC_CONTEXT_DMA2),
	NV(NV_ESC_RM_ADD_VBLANK_CALLBACK), NV(NV_ESC_RM_MAP_MEMORY_DMA),
	NV(NV_ESC_RM_UNMAP_MEMORY_DMA), NV(NV_ESC_RM_BIND_CONTEXT_DMA),
	NV(NV_ESC_RM_EXPORT_OBJECT_TO_FD), NV(NV_ESC_RM_IMPORT_OBJECT_FROM_FD),
	NV(NV_ESC_RM_UPDATE_DEVICE_MAPPING_INFO), NV(NV_ESC_RM_LOCKLESS_DIAGNOSTIC),
	NV(NV_ESC_CARD_INFO), NV(NV_ESC_REGISTER_FD), NV(NV_ESC_ALLOC_OS_EVENT),
	NV(NV_ESC_FREE_OS_EVENT), NV(NV_ESC_STATUS_CODE),
	NV(NV_ESC_CHECK_VERSION_STR), NV(NV_ESC_IOCTL_XFER_CMD),
	NV(NV_ESC_ATTACH_GPUS_TO_FD), NV(NV_ESC_QUERY_DEVICE_INTR),
	NV(NV_ESC_SYS_PARAMS), NV(NV_ESC_EXPORT_TO_DMABUF_FD),
	NV(NV_ESC_WAIT_OPEN_COMPLETE),
};

/* nvidia_uvm.ko: the whole command is the number (not _IOC-encoded) */
static const struct nv_name uvm_cmds[] = {
	NV(UVM_INITIALIZE), NV(UVM_DEINITIALIZE),
	NV(UVM_RESERVE_VA), NV(UVM_RELEASE_VA), NV(UVM_REGION_COMMIT),
	NV(UVM_REGION_DECOMMIT), NV(UVM_REGION_SET_STREAM),
	NV(UVM_SET_STREAM_RUNNING), NV(UVM_SET_STREAM_STOPPED), NV(UVM_RUN_TEST),
	NV(UVM_ADD_SESSION), NV(UVM_REMOVE_SESSION), NV(UVM_ENABLE_COUNTERS),
	NV(UVM_MAP_COUNTER), NV(UVM_CREATE_EVENT_QUEUE), NV(UVM_REMOVE_EVENT_QUEUE),
	NV(UVM_MAP_EVENT_QUEUE), NV(UVM_EVENT_CTRL), NV(UVM_REGISTER_MPS_SERVER),
	NV(UVM_REGISTER_MPS_CLIENT), NV(UVM_GET_GPU_UUID_TABLE),
	NV(UVM_REGION_SET_BACKING), NV(UVM_REGION_UNSET_BACKING),
	NV(UVM_CREATE_RANGE_GROUP), NV(UVM_DESTROY_RANGE_GROUP),
	NV(UVM_REGISTER_GPU_VASPACE), NV(UVM_UNREGISTER_GPU_VASPACE),
	NV(UVM_REGISTER_CHANNEL), NV(UVM_UNREGISTER_CHANNEL),
	NV(UVM_ENABLE_PEER_ACCESS), NV(UVM_DISABLE_PEER_ACCESS),
	NV(UVM_SET_RANGE_GROUP), NV(UVM_MAP_EXTERNAL_ALLOCATION), NV(UVM_FREE),
	NV(UVM_MEM_MAP), NV(UVM_REGISTER_GPU), NV(UVM_UNREGISTER_GPU),
	NV(UVM_PAGEABLE_MEM_ACCESS), NV(UVM_PREVENT_MIGRATION_RANGE_GROUPS),
	NV(UVM_ALLOW_MIGRATION_RANGE_GROUPS), NV(UVM_SET_PREFERRED_LOCATION),
	NV(UVM_UNSET_PREFERRED_LOCATION), NV(UVM_ENABLE_READ_DUPLICATION),
	NV(UVM_DISABLE_READ_DUPLICATION), NV(UVM_SET_ACCESSED_BY),
	NV(UVM_UNSET_ACCESSED_BY), NV(UVM_MIGRATE), NV(UVM_MIGRATE_RANGE_GROUP),
	NV(UVM_ENABLE_SYSTEM_WIDE_ATOMICS), NV(UVM_DISABLE_SYSTEM_WIDE_ATOMICS),
	NV(UVM_TOOLS_INIT_EVENT_TRACKER), NV(UVM_TOOLS_SET_NOTIFICATION_THRESHOLD),
	NV(UVM_TOOLS_EVENT_QUEUE_ENABLE_EVENTS),
	NV(UVM_TOOLS_EVENT_QUEUE_DISABLE_EVENTS), NV(UVM_TOOLS_ENABLE_COUNTERS),
	NV(UVM_TOOLS_DISABLE_COUNTERS), NV(UVM_TOOLS_READ_PROCESS_MEMORY),
	NV(UVM_TOOLS_WRITE_PROCESS_MEMORY), NV(UVM_TOOLS_GET_PROCESSOR_UUID_TABLE),
	NV(UVM_MAP_DYNAMIC_PARALLELISM_REGION), NV(UVM_UNMAP_EXTERNAL),
	NV(UVM_TOOLS_FLUSH_EVENTS), NV(UVM_ALLOC_SEMAPHORE_POOL),
	NV(UVM_CLEAN_UP_ZOMBIE_RESOURCES), NV(UVM_PAGEABLE_MEM_ACCESS_ON_GPU),
	NV(UVM_POPULATE_PAGEABLE), NV(UVM_VALIDATE_VA_RANGE),
	NV(UVM_CREATE_EXTERNAL_RANGE), NV(UVM_MAP_EXTERNAL_SPARSE),
	NV(UVM_MM_INITIALIZE), NV(UVM_TOOLS_INIT_EVENT_TRACKER_V2),
	NV(UVM_TOOLS_GET_PROCESSOR_UUID_TABLE_V2), NV(UVM_ALLOC_DEVICE_P2P),
	NV(UVM_CLEAR_ALL_ACCESS_COUNTERS), NV(UVM_DISCARD), NV(UVM_IS_8_SUPPORTED),
};

#define NR(a)	(sizeof(a) / sizeof((a)[0]))

static const char *lookup(const struct nv_name *t, size_t n, unsigned int nr)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].nr == nr)
			return t[i].name;
	return NULL;
}

const char *nvidia_ioctl_name(unsigned int cmd)
{
	if (_IOC_TYPE(cmd) != NV_IOCTL_MAGIC)
		return NULL;
	return lookup(nv_escapes, NR(nv_escapes), _IOC_NR(cmd));
}

const char *nvidia_uvm_ioctl_name(unsigned int cmd)
{
	return lookup(uvm_cmds, NR(uvm_cmds), cmd);
}

/* Every name and number, for bpfdrv trace --ioctl-names nvidia. */
void nvidia_print_ioctl_names(FILE *out)
{
	size_t i;

	for (i = 0; i < NR(nv_escapes); i++)
		fprintf(out, "nvidia %u %s\n", nv_escapes[i].nr, nv_escapes[i].name);
	for (i = 0; i < NR(uvm_cmds); i++)
		fprintf(out, "nvidia-uvm %u %s\n", uvm_cmds[i].nr, uvm_cmds[i].name);
}

/* The node of a minor of nvidia.ko (nv.c: NV_MINOR_DEVICE_NUMBER_*). */
void nvidia_minor_name(unsigned int minor, bool uvm, char *buf, size_t size)
{
	if (uvm)
		snprintf(buf, size, minor ? "nvidia-uvm-tools" : "nvidia-uvm");
	else if (minor == 255)
		snprintf(buf, size, "nvidiactl");
	else if (minor == 254)
		snprintf(buf, size, "nvidia-modeset");
	else
		snprintf(buf, size, "nvidia%u", minor);
}
