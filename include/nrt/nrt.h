/*
 * nrt/nrt.h: the part of libnrt's nrt/nrt.h that a sys_trace client needs,
 * at the path libnrt's clients include.
 *
 * A SUBSET (docs/decisions.md D-STATUS-STR). Clients of libnrt write
 *
 *     #include <nrt/nrt.h>            // NRT_STATUS, nrt_get_status_as_str
 *     #include <nrt/nrt_sys_trace.h>  // the capture and fetch API
 *
 * and use NRT_STATUS and nrt_get_status_as_str in their error classes; with
 * this header such a client compiles against ntsim unchanged. It gives what
 * libnrt's nrt.h gives a trace client: the standard headers it includes, the
 * status codes and their names (nrt/nrt_status.h, as libnrt's nrt.h includes
 * it) and the API version macros. The model, tensor and execute API of
 * libnrt's nrt.h (nrt_init, nrt_load, nrt_execute, ...) is not here: ntsim
 * has no device to run a model on, and a declaration without a definition
 * would only turn a compile error into a link error.
 *
 * Source: aws-neuron/aws-neuron-sdk, src/libnrt/include/nrt/nrt.h.
 * Compiles as C11 and as C++.
 */
#ifndef NRT_NRT_H
#define NRT_NRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"

/* Major and minor version of the runtime API (libnrt's nrt.h). */
#define NRT_MAJOR_VERSION 2
#define NRT_MINOR_VERSION 0

#endif /* NRT_NRT_H */
