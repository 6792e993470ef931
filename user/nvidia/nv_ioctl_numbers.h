/*
 * SPDX-FileCopyrightText: Copyright (c) 1999-2025 NVIDIA CORPORATION & AFFILIATES. All rights reserved.
 * SPDX-License-Identifier: MIT
 *
 * Permission is hereby granted, free of charge, to any person obtaining a
 * copy of this software and associated documentation files (the "Software"),
 * to deal in the Software without restriction, including without limitation
 * the rights to use, copy, modify, merge, publish, distribute, sublicense,
 * and/or sell copies of the Software, and to permit persons to whom the
 * Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in
 * all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL
 * THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
 * FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
 * DEALINGS IN THE SOFTWARE.
 */

/*
 * The ioctl numbers of NVIDIA's open GPU kernel modules, release
 * 580.105.08 (the open-gpu-kernel-modules repository), copied from
 * src/nvidia/arch/nvalloc/unix/include/nv_escape.h,
 * kernel-open/common/inc/nv-ioctl-numbers.h,
 * kernel-open/nvidia-uvm/uvm_ioctl.h and
 * kernel-open/nvidia-uvm/uvm_linux_ioctl.h: the defines only, unchanged.
 * bpfdrv trace names the driver's ioctls with them (trace/nvidia.c).
 */
#ifndef NV_IOCTL_NUMBERS_580_H
#define NV_IOCTL_NUMBERS_580_H

/* nv_escape.h */
#define NV_ESC_RM_ALLOC_MEMORY                      0x27
#define NV_ESC_RM_ALLOC_OBJECT                      0x28
#define NV_ESC_RM_FREE                              0x29
#define NV_ESC_RM_CONTROL                           0x2A
#define NV_ESC_RM_ALLOC                             0x2B
#define NV_ESC_RM_CONFIG_GET                        0x32
#define NV_ESC_RM_CONFIG_SET                        0x33
#define NV_ESC_RM_DUP_OBJECT                        0x34
#define NV_ESC_RM_SHARE                             0x35
#define NV_ESC_RM_CONFIG_GET_EX                     0x37
#define NV_ESC_RM_CONFIG_SET_EX                     0x38
#define NV_ESC_RM_I2C_ACCESS                        0x39
#define NV_ESC_RM_IDLE_CHANNELS                     0x41
#define NV_ESC_RM_VID_HEAP_CONTROL                  0x4A
#define NV_ESC_RM_ACCESS_REGISTRY                   0x4D
#define NV_ESC_RM_MAP_MEMORY                        0x4E
#define NV_ESC_RM_UNMAP_MEMORY                      0x4F
#define NV_ESC_RM_GET_EVENT_DATA                    0x52
#define NV_ESC_RM_ALLOC_CONTEXT_DMA2                0x54
#define NV_ESC_RM_ADD_VBLANK_CALLBACK               0x56
#define NV_ESC_RM_MAP_MEMORY_DMA                    0x57
#define NV_ESC_RM_UNMAP_MEMORY_DMA                  0x58
#define NV_ESC_RM_BIND_CONTEXT_DMA                  0x59
#define NV_ESC_RM_EXPORT_OBJECT_TO_FD               0x5C
#define NV_ESC_RM_IMPORT_OBJECT_FROM_FD             0x5D
#define NV_ESC_RM_UPDATE_DEVICE_MAPPING_INFO        0x5E
#define NV_ESC_RM_LOCKLESS_DIAGNOSTIC               0x5F

/* nv-ioctl-numbers.h */
#define NV_IOCTL_MAGIC      'F'
#define NV_IOCTL_BASE       200
#define NV_ESC_CARD_INFO             (NV_IOCTL_BASE + 0)
#define NV_ESC_REGISTER_FD           (NV_IOCTL_BASE + 1)
#define NV_ESC_ALLOC_OS_EVENT        (NV_IOCTL_BASE + 6)
#define NV_ESC_FREE_OS_EVENT         (NV_IOCTL_BASE + 7)
#define NV_ESC_STATUS_CODE           (NV_IOCTL_BASE + 9)
#define NV_ESC_CHECK_VERSION_STR     (NV_IOCTL_BASE + 10)
#define NV_ESC_IOCTL_XFER_CMD        (NV_IOCTL_BASE + 11)
#define NV_ESC_ATTACH_GPUS_TO_FD     (NV_IOCTL_BASE + 12)
#define NV_ESC_QUERY_DEVICE_INTR     (NV_IOCTL_BASE + 13)
#define NV_ESC_SYS_PARAMS            (NV_IOCTL_BASE + 14)
#define NV_ESC_EXPORT_TO_DMABUF_FD   (NV_IOCTL_BASE + 17)
#define NV_ESC_WAIT_OPEN_COMPLETE    (NV_IOCTL_BASE + 18)

/* uvm_ioctl.h (Linux: UVM_IOCTL_BASE(i) is i) */
#define UVM_IOCTL_BASE(i) i
#define UVM_RESERVE_VA                                                UVM_IOCTL_BASE(1)
#define UVM_RELEASE_VA                                                UVM_IOCTL_BASE(2)
#define UVM_REGION_COMMIT                                             UVM_IOCTL_BASE(3)
#define UVM_REGION_DECOMMIT                                           UVM_IOCTL_BASE(4)
#define UVM_REGION_SET_STREAM                                         UVM_IOCTL_BASE(5)
#define UVM_SET_STREAM_RUNNING                                        UVM_IOCTL_BASE(6)
#define UVM_SET_STREAM_STOPPED                                        UVM_IOCTL_BASE(7)
#define UVM_RUN_TEST                                                  UVM_IOCTL_BASE(9)
#define UVM_ADD_SESSION                                               UVM_IOCTL_BASE(10)
#define UVM_REMOVE_SESSION                                             UVM_IOCTL_BASE(11)
#define UVM_ENABLE_COUNTERS                                           UVM_IOCTL_BASE(12)
#define UVM_MAP_COUNTER                                               UVM_IOCTL_BASE(13)
#define UVM_CREATE_EVENT_QUEUE                                        UVM_IOCTL_BASE(14)
#define UVM_REMOVE_EVENT_QUEUE                                        UVM_IOCTL_BASE(15)
#define UVM_MAP_EVENT_QUEUE                                           UVM_IOCTL_BASE(16)
#define UVM_EVENT_CTRL                                                UVM_IOCTL_BASE(17)
#define UVM_REGISTER_MPS_SERVER                                       UVM_IOCTL_BASE(18)
#define UVM_REGISTER_MPS_CLIENT                                       UVM_IOCTL_BASE(19)
#define UVM_GET_GPU_UUID_TABLE                                        UVM_IOCTL_BASE(20)
#define UVM_REGION_SET_BACKING                                        UVM_IOCTL_BASE(21)
#define UVM_REGION_UNSET_BACKING                                      UVM_IOCTL_BASE(22)
#define UVM_CREATE_RANGE_GROUP                                        UVM_IOCTL_BASE(23)
#define UVM_DESTROY_RANGE_GROUP                                       UVM_IOCTL_BASE(24)
#define UVM_REGISTER_GPU_VASPACE                                      UVM_IOCTL_BASE(25)
#define UVM_UNREGISTER_GPU_VASPACE                                    UVM_IOCTL_BASE(26)
#define UVM_REGISTER_CHANNEL                                          UVM_IOCTL_BASE(27)
#define UVM_UNREGISTER_CHANNEL                                        UVM_IOCTL_BASE(28)
#define UVM_ENABLE_PEER_ACCESS                                       UVM_IOCTL_BASE(29)
#define UVM_DISABLE_PEER_ACCESS                                      UVM_IOCTL_BASE(30)
#define UVM_SET_RANGE_GROUP                                           UVM_IOCTL_BASE(31)
#define UVM_MAP_EXTERNAL_ALLOCATION                                   UVM_IOCTL_BASE(33)
#define UVM_FREE                                                      UVM_IOCTL_BASE(34)
#define UVM_MEM_MAP                                                   UVM_IOCTL_BASE(35)
#define UVM_REGISTER_GPU                                              UVM_IOCTL_BASE(37)
#define UVM_UNREGISTER_GPU                                            UVM_IOCTL_BASE(38)
#define UVM_PAGEABLE_MEM_ACCESS                                       UVM_IOCTL_BASE(39)
#define UVM_PREVENT_MIGRATION_RANGE_GROUPS                            UVM_IOCTL_BASE(40)
#define UVM_ALLOW_MIGRATION_RANGE_GROUPS                              UVM_IOCTL_BASE(41)
#define UVM_SET_PREFERRED_LOCATION                                    UVM_IOCTL_BASE(42)
#define UVM_UNSET_PREFERRED_LOCATION                                  UVM_IOCTL_BASE(43)
#define UVM_ENABLE_READ_DUPLICATION                                   UVM_IOCTL_BASE(44)
#define UVM_DISABLE_READ_DUPLICATION                                  UVM_IOCTL_BASE(45)
#define UVM_SET_ACCESSED_BY                                           UVM_IOCTL_BASE(46)
#define UVM_UNSET_ACCESSED_BY                                         UVM_IOCTL_BASE(47)
#define UVM_MIGRATE                                                   UVM_IOCTL_BASE(51)
#define UVM_MIGRATE_RANGE_GROUP                                       UVM_IOCTL_BASE(53)
#define UVM_ENABLE_SYSTEM_WIDE_ATOMICS                                UVM_IOCTL_BASE(54)
#define UVM_DISABLE_SYSTEM_WIDE_ATOMICS                               UVM_IOCTL_BASE(55)
#define UVM_TOOLS_INIT_EVENT_TRACKER                                  UVM_IOCTL_BASE(56)
#define UVM_TOOLS_SET_NOTIFICATION_THRESHOLD                          UVM_IOCTL_BASE(57)
#define UVM_TOOLS_EVENT_QUEUE_ENABLE_EVENTS                           UVM_IOCTL_BASE(58)
#define UVM_TOOLS_EVENT_QUEUE_DISABLE_EVENTS                          UVM_IOCTL_BASE(59)
#define UVM_TOOLS_ENABLE_COUNTERS                                     UVM_IOCTL_BASE(60)
#define UVM_TOOLS_DISABLE_COUNTERS                                    UVM_IOCTL_BASE(61)
#define UVM_TOOLS_READ_PROCESS_MEMORY                                 UVM_IOCTL_BASE(62)
#define UVM_TOOLS_WRITE_PROCESS_MEMORY                                UVM_IOCTL_BASE(63)
#define UVM_TOOLS_GET_PROCESSOR_UUID_TABLE                            UVM_IOCTL_BASE(64)
#define UVM_MAP_DYNAMIC_PARALLELISM_REGION                            UVM_IOCTL_BASE(65)
#define UVM_UNMAP_EXTERNAL                                            UVM_IOCTL_BASE(66)
#define UVM_TOOLS_FLUSH_EVENTS                                        UVM_IOCTL_BASE(67)
#define UVM_ALLOC_SEMAPHORE_POOL                                     UVM_IOCTL_BASE(68)
#define UVM_CLEAN_UP_ZOMBIE_RESOURCES                                 UVM_IOCTL_BASE(69)
#define UVM_PAGEABLE_MEM_ACCESS_ON_GPU                                UVM_IOCTL_BASE(70)
#define UVM_POPULATE_PAGEABLE                                         UVM_IOCTL_BASE(71)
#define UVM_VALIDATE_VA_RANGE                                         UVM_IOCTL_BASE(72)
#define UVM_CREATE_EXTERNAL_RANGE                                     UVM_IOCTL_BASE(73)
#define UVM_MAP_EXTERNAL_SPARSE                                       UVM_IOCTL_BASE(74)
#define UVM_MM_INITIALIZE                                             UVM_IOCTL_BASE(75)
#define UVM_TOOLS_INIT_EVENT_TRACKER_V2                               UVM_IOCTL_BASE(76)
#define UVM_TOOLS_GET_PROCESSOR_UUID_TABLE_V2                         UVM_IOCTL_BASE(77)
#define UVM_ALLOC_DEVICE_P2P                                          UVM_IOCTL_BASE(78)
#define UVM_CLEAR_ALL_ACCESS_COUNTERS                                 UVM_IOCTL_BASE(79)
#define UVM_DISCARD                                                   UVM_IOCTL_BASE(80)
#define UVM_IS_8_SUPPORTED                                            UVM_IOCTL_BASE(2047)

/* uvm_linux_ioctl.h */
#define UVM_INITIALIZE                                                0x30000001
#define UVM_DEINITIALIZE                                              0x30000002

#endif
