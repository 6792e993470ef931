#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Hostile drivers: forged contexts, NULL and stale pointers, out-of-bounds
# windows, stores into contexts, sleeping kfuncs from atomic programs, raw
# memory helpers. The verifier must refuse every one at load time.
. "$(dirname "$0")/lib.sh"

load_module || { nok "insmod bpfdrv.ko for the hostile corpus"; exit 0; }
hostile_corpus hostile
