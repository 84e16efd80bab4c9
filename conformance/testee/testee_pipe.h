/*
 * conformance/testee/testee_pipe.h: the testee protocol's frames on a file
 * descriptor: a 4-byte little-endian length, then that many bytes
 * (conformance/testee/testee.proto). The runner's pipe transport reads and writes
 * them with a deadline; `ntsim testee` with none.
 */
#ifndef NTSIM_CONFORMANCE_TESTEE_PIPE_H
#define NTSIM_CONFORMANCE_TESTEE_PIPE_H

#include <stddef.h>
#include <stdint.h>

typedef enum ntsim_frame_status {
    NTSIM_FRAME_OK,
    NTSIM_FRAME_EOF,       /* the end of the stream before a frame began */
    NTSIM_FRAME_TRUNCATED, /* the end of the stream inside a frame */
    NTSIM_FRAME_TOO_LONG,  /* a length above NTSIM_TESTEE_MAX_FRAME */
    NTSIM_FRAME_TIMEOUT,   /* the deadline passed */
    NTSIM_FRAME_IO_ERROR,  /* read or write failed (errno kept), e.g. EPIPE */
    NTSIM_FRAME_NO_MEMORY
} ntsim_frame_status_t;

/* Reads one frame; *out is malloc'd (the caller frees) and *len its length.
 * timeout_ms < 0: no deadline. On NTSIM_FRAME_TOO_LONG, *len is the length
 * the frame claimed; on NTSIM_FRAME_TRUNCATED, how many bytes came. */
ntsim_frame_status_t ntsim_frame_read(int fd, int timeout_ms, uint8_t **out, size_t *len);
/* Writes one frame (len <= NTSIM_TESTEE_MAX_FRAME). */
ntsim_frame_status_t ntsim_frame_write(int fd, const uint8_t *buf, size_t len, int timeout_ms);

#endif /* NTSIM_CONFORMANCE_TESTEE_PIPE_H */
