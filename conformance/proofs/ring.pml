/*
 * conformance/proofs/ring.pml: the ring protocol of engine/capture/ring.c, for Spin.
 *
 * Up to three threads on one ring of C slots under x86-TSO: P (thread 1)
 * pushes NP records, I (thread 2) pushes NI, Q (thread 0) pops NPOPS times.
 * The first pusher takes ownership; the other one then revokes it
 * (SHARED_FROM_START skips ownership: both claim by CAS). Every thread has a
 * FIFO store buffer: a plain store enters it and reaches memory when the
 * thread's flusher takes it, at any moment; a load sees the thread's own
 * newest buffered store first; a locked operation (CAS, exchange, seq_cst
 * store) waits for the thread's buffer to drain and acts on memory;
 * membarrier drains every buffer. Each shared access is one step; only
 * thread-local work is merged into it. Step names (P1-P4, C1-C5,
 * Ownership) are those of the protocol at the top of engine/capture/ring.c, and
 * each block below names the C function it mirrors.
 *
 * Checked in every interleaving and every store-buffer schedule:
 *   - no position is claimed by two producers, nor claimed again once
 *     committed;
 *   - a record the consumer hands out holds the position it expects, when
 *     it is copied and still when the consumer releases it (no producer
 *     wrote the slot meanwhile); positions come out in increasing order;
 *   - no record is both evicted and drained;
 *   - at the end: every position below max(K, H - C) was drained or
 *     evicted, the others are in the ring; consumed - drained (the
 *     engine's `overwritten`) equals the evictions producers decided, each
 *     of which stamps the overwrite times; pushed + busy = attempted
 *     pushes; every stamp and record is what the positions say; oseq is
 *     even and R = K;
 *   - no thread waits forever (Spin's invalid end states).
 *
 * conformance/proofs/model.sh runs the configurations below, and each mutant
 * (-DMUTANT_x), which must make Spin find a violation:
 *   NO_BARRIER      the revoker skips membarrier
 *   NO_OSEQ_WAIT    the revoker does not wait for the owner's claim
 *   NO_RECHECK      the owner does not re-read owner after oseq += 1
 *   NO_POP_BARRIER  the consumer skips membarrier near the eviction front
 *   NO_DECIDE_WAIT  the consumer takes records near the front without asking
 *   OWNER_NO_SC     the owner never makes a claim seq_cst (the consumer
 *                   still counts on every M-th)
 *   EVICT_NO_K      P3 evicts without reading K
 *   JUMP_TO_FRONT   C1 starts at H - C, skipping records whose pushers
 *                   have not read K yet (the first design's bug)
 *   WINDOW_OWNER_FIRST  C2' reads owner before the window's last stamp: a
 *                   stamp that a revoker published is taken as the owner's
 */

#ifndef C
#define C 2            /* capacity: slots */
#endif
#ifndef NP
#define NP 3           /* P's pushes */
#endif
#ifndef NI
#define NI 1           /* I's pushes */
#endif
#ifndef NPOPS
#define NPOPS 1        /* Q's pop calls (two rounds each at most) */
#endif
#define B 2            /* records claimed per consumer round */
#define TRIES 2        /* P1 waits before a push is refused as busy */
#ifdef FENCE_MODE
#define M 1            /* without membarrier every owner claim is seq_cst */
#else
#define M 2            /* the owner's claim of every M-th position is seq_cst */
#endif
#ifdef MUTANT_OWNER_NO_SC
#define M_OWNER 100        /* the consumer still counts on every M-th */
#else
#define M_OWNER M
#endif
#define NPOS (NP + NI + 1)

/* Shared memory cells. */
#define A_H 0
#define A_K 1
#define A_R 2
#define A_OWNER 3
#define A_OSEQ 4
#define A_STAMP(j) (5 + (j))
#define A_D(j) (5 + C + (j))   /* the record: the position written into it */
#define NADDR (5 + 2 * C)

/* Stamps, here without the slot offset of the C code. */
#define FREE(q) (4 * (q))
#define PUB(q) (4 * (q) + 1)
#define YLD(q) (4 * (q) + 2)

/* owner: NONE, a thread (1 = P, 2 = I), REVOKING|thread (thread + 2), SHARED */
#define NONE 0
#define REV(t) ((t) + 2)
#define SHARED 5

#define SB 4           /* store-buffer entries per thread */
#define OK 1
#define WAIT 2
#define STALE 3
#define BUSY 4
#define DONE 9

byte mem[NADDR];
byte sb_addr[3 * SB];
byte sb_val[3 * SB];
byte sb_n[3];
hidden byte i_;        /* scratch inside d_steps only */

/* Ghost state. */
byte claimed[NPOS];    /* 0 free, the producer holding it, or DONE once committed */
byte fate[NPOS];       /* 0 undecided, 1 drained, 2 evicted */
byte evictions;        /* eviction decisions, each stamping the overwrite times */
byte delivered;        /* records the consumer handed out */
byte busy;             /* refused pushes */
byte last_out;         /* 1 + the consumer's latest position handed out */
byte finished;

/* --- TSO memory ---------------------------------------------------------------- */

/* Within a d_step: v = t's view of cell a. */
#define LD(t, a, v) \
    v = mem[a]; i_ = 0; \
    do \
    :: i_ < sb_n[t] -> if :: sb_addr[(t) * SB + i_] == (a) -> v = sb_val[(t) * SB + i_] :: else fi; i_++ \
    :: else -> break \
    od; \
    i_ = 0

/* Within a d_step guarded by sb_n[t] < SB: a plain store. */
#define ST(t, a, v) \
    sb_addr[(t) * SB + sb_n[t]] = (a); sb_val[(t) * SB + sb_n[t]] = (v); sb_n[t]++

#define DRAIN(t) \
    i_ = 0; \
    do \
    :: i_ < sb_n[t] -> mem[sb_addr[(t) * SB + i_]] = sb_val[(t) * SB + i_]; i_++ \
    :: else -> break \
    od; \
    sb_n[t] = 0; i_ = 0

/* membarrier(PRIVATE_EXPEDITED): every thread executes a full barrier. */
#define MEMBARRIER d_step { DRAIN(0); DRAIN(1); DRAIN(2) }

proctype Flusher(byte t) {
end:
    do
    :: d_step {
           sb_n[t] > 0 ->
           mem[sb_addr[t * SB]] = sb_val[t * SB];
           i_ = 1;
           do
           :: i_ < sb_n[t] -> sb_addr[t * SB + i_ - 1] = sb_addr[t * SB + i_];
                              sb_val[t * SB + i_ - 1] = sb_val[t * SB + i_]; i_++
           :: else -> break
           od;
           sb_n[t]--;
           sb_addr[t * SB + sb_n[t]] = 0; sb_val[t * SB + sb_n[t]] = 0; i_ = 0
       }
    od
}

/* --- producers --------------------------------------------------------------------- */

#define CLAIM(w, t) assert(claimed[w] == 0); claimed[w] = t
#define EVICT(p) assert(fate[p] == 0); fate[p] = 2; evictions++

/* P1, ntsim__ring_precheck: sets pre from the stamp of slot w % C, K, R. */
inline precheck(t) {
    d_step {
        LD(t, A_STAMP(w % C), s_);
        if
        :: w < C ->
            if
            :: s_ == FREE(w) -> pre = OK
            :: s_ > FREE(w) -> pre = STALE
            :: else -> pre = WAIT
            fi
        :: else ->
            if
            :: s_ < PUB(w - C) -> pre = WAIT
            :: s_ >= FREE(w) -> pre = STALE
            :: else -> pre = 0
            fi
        fi;
        s_ = 0
    }
    if
    :: pre == 0 ->
        d_step { LD(t, A_K, k) }
        if
        :: w - C < k ->
            d_step { LD(t, A_R, r); if :: w - C >= r -> pre = WAIT :: else -> pre = OK fi; r = 0 }
        :: else -> pre = OK
        fi;
        k = 0
    :: else
    fi
}

/* P3 after a claim of w (both modes). decided: 1 evict or took, 2 yield. */
inline decide(t) {
    if
    :: w < C -> decided = 1
    :: else ->
        d_step {
            LD(t, A_K, k);
#ifdef MUTANT_EVICT_NO_K
            k = 0;
#endif
            if :: w - C >= k -> EVICT(w - C); decided = 1 :: else -> decided = 0 fi;
            k = 0
        }
        if
        :: decided == 0 ->
            d_step { LD(t, A_R, r); if :: w - C < r -> decided = 1 :: else -> decided = 2 fi; r = 0 }
        :: else
        fi
    fi
}

/* P1-P3 for the owner: ntsim__ring_claim_owned (oseq is odd around it). */
inline claim_owned(t) {
    tries = 0;
    do
    :: true ->
        d_step { LD(t, A_H, w) }
        precheck(t);
        if
        :: pre == OK ->
            if
            :: (w % M_OWNER) == 0 -> d_step { sb_n[t] == 0 -> mem[A_H] = w + 1; CLAIM(w, t) }
            :: else -> d_step { sb_n[t] < SB -> ST(t, A_H, w + 1); CLAIM(w, t) }
            fi;
            decide(t);
            if
            :: decided == 1 -> result = OK; break
            :: else ->
                /* yield: tell the consumer, give w back, wait in P1 */
                d_step { sb_n[t] < SB -> ST(t, A_STAMP(w % C), YLD(w - C)) }
                d_step { sb_n[t] < SB -> claimed[w] = 0; ST(t, A_H, w) }
            fi
        :: else
        fi;
        tries++;
        if
        :: tries >= TRIES -> result = BUSY; break
        :: else
        fi
    od;
    skip
}

/* Ownership, ring_revoke, for owner value o. */
inline revoke(t) {
    if
    :: o == 1 || o == 2 ->
        d_step {
            sb_n[t] == 0 ->
            if
            :: mem[A_OWNER] == o -> mem[A_OWNER] = REV(o)
            :: else -> o = mem[A_OWNER]
            fi
        }
    :: else
    fi;
    if
    :: o != SHARED ->
#if !defined(FENCE_MODE) && !defined(MUTANT_NO_BARRIER)
        MEMBARRIER;
#endif
        d_step { LD(t, A_OSEQ, s) }
#ifndef MUTANT_NO_OSEQ_WAIT
        if
        :: s % 2 == 1 -> (mem[A_OSEQ] != s)   /* the owner's claim is over */
        :: else
        fi;
#endif
        d_step { sb_n[t] < SB -> ST(t, A_OWNER, SHARED); s = 0 }
    :: else
    fi
}

/* P1-P3 with a CAS: claim_shared. */
inline claim_shared(t) {
    tries = 0;
    d_step { LD(t, A_H, w) }
    do
    :: true ->
        precheck(t);
        if
        :: pre == STALE -> d_step { LD(t, A_H, w) }
        :: pre == WAIT ->
            tries++;
            if
            :: tries >= TRIES -> result = BUSY; break
            :: else -> d_step { LD(t, A_H, w) }
            fi
        :: pre == OK ->
            d_step {
                sb_n[t] == 0 ->
                if
                :: mem[A_H] == w -> mem[A_H] = w + 1; CLAIM(w, t); pre = OK
                :: else -> w = mem[A_H]; pre = WAIT
                fi
            }
            if
            :: pre == OK ->
                decide(t);
                if
                :: decided == 1 -> result = OK; break
                :: else ->
                    d_step { sb_n[t] < SB -> ST(t, A_STAMP(w % C), YLD(w - C)) }
                    d_step {
                        sb_n[t] == 0 ->
                        if
                        :: mem[A_H] == w + 1 -> mem[A_H] = w; claimed[w] = 0; pre = OK
                        :: else -> pre = WAIT
                        fi
                    }
                    if
                    :: pre == OK ->          /* given back: wait in P1 */
                        tries++;
                        if
                        :: tries >= TRIES -> result = BUSY; break
                        :: else -> d_step { LD(t, A_H, w) }
                        fi
                    :: else ->               /* w is ours: wait for the consumer's copy */
                        (mem[A_R] > w - C); result = OK; break
                    fi
                fi
            :: else                          /* CAS lost: w is the current H */
            fi
        fi
    od;
    skip
}

proctype Producer(byte t; byte npush) {
    byte o, s, w, k, r, s_, tries, result, pre, decided, n;
    do
    :: n < npush ->
        /* ntsim__ring_reserve */
        d_step { LD(t, A_OWNER, o) }
        if
        :: o == t -> goto owner_try
        :: else -> goto slow
        fi;
owner_try: skip;
#ifdef FENCE_MODE
        d_step { sb_n[t] == 0 -> LD(t, A_OSEQ, s); mem[A_OSEQ] = s + 1 }
#else
        d_step { sb_n[t] < SB -> LD(t, A_OSEQ, s); ST(t, A_OSEQ, s + 1) }
#endif
        d_step {
            LD(t, A_OWNER, o);
#ifdef MUTANT_NO_RECHECK
            o = t;
#endif
            skip
        }
        if
        :: o == t ->
            claim_owned(t);
            d_step { sb_n[t] < SB -> ST(t, A_OSEQ, s + 2); s = 0 }
            goto write
        :: else ->
            d_step { sb_n[t] < SB -> ST(t, A_OSEQ, s + 2); s = 0 }
        fi;
slow: skip;
        /* ntsim__ring_reserve_slow: a seq_cst load (plain on x86), a CAS
         * while there is no owner */
        d_step { LD(t, A_OWNER, o) }
        if
        :: o == NONE ->
            d_step { sb_n[t] == 0 -> o = mem[A_OWNER]; if :: o == NONE -> mem[A_OWNER] = t; o = t :: else fi }
        :: else
        fi;
        if
        :: o == t -> goto owner_try
        :: else
        fi;
        if
        :: o != SHARED && o != REV(t) -> revoke(t)
        :: else
        fi;
        claim_shared(t);
write:
        /* P4: the record, then its stamp */
        if
        :: result == OK ->
            d_step { sb_n[t] < SB -> ST(t, A_D(w % C), w) }
            d_step { sb_n[t] < SB -> ST(t, A_STAMP(w % C), PUB(w)); claimed[w] = DONE }
        :: else -> busy++
        fi;
        d_step { o = 0; w = 0; tries = 0; result = 0; pre = 0; decided = 0; n++ }
    :: else -> break
    od;
    finished++
}

/* --- the consumer: ntsim__ring_pop ---------------------------------------------------- */

inline deliver(p) {
    d_step {
        LD(0, A_D(p % C), s_);
        assert(s_ == p);               /* not written by another push */
        assert(claimed[p] == DONE);    /* its pusher has committed it */
        assert(fate[p] == 0);
        assert(p + 1 > last_out);
        fate[p] = 1; last_out = p + 1; delivered++;
        s_ = 0
    }
}

proctype Consumer() {
    byte kf, e, e2, d, q, f, sure, p, s_, o_, pops, rounds;
    do
    :: pops < NPOPS ->
        d_step { LD(0, A_K, kf) }
        rounds = 0;
        do
        :: rounds < 2 ->
            rounds++;
            d_step {                                          /* C1 */
                LD(0, A_H, e);
                d = kf;
#ifdef MUTANT_JUMP_TO_FRONT
                if :: d + C < e -> d = e - C :: else fi;
#else
                if :: d + 2 * C < e -> d = e - 2 * C :: else fi;
#endif
                q = d
            }
            /* C2': owned_window_published. The window is [d, d + B):
             * its last stamp, then owner. */
#ifdef MUTANT_WINDOW_OWNER_FIRST
            d_step { LD(0, A_OWNER, o_) }
#endif
            d_step {
                LD(0, A_STAMP((d + B - 1) % C), s_);
                if :: s_ >= PUB(d + B - 1) -> s_ = 1 :: else -> s_ = 0 fi
            }
            if
            :: s_ == 1 ->
#ifndef MUTANT_WINDOW_OWNER_FIRST
                d_step { LD(0, A_OWNER, o_) }
#endif
                if :: o_ == 1 || o_ == 2 -> q = d + B; o_ = 9 :: else fi
            :: else
            fi;
            s_ = 0;
            do                                                /* C2 */
            :: o_ != 9 && q - d < B + C ->
                d_step {
                    LD(0, A_STAMP(q % C), s_);
                    if
                    :: s_ == PUB(q) -> q++            /* present: claimed */
                    :: s_ > YLD(q) -> q++             /* a later lap: passed over */
                    :: else -> s_ = 255               /* not published yet */
                    fi
                }
                if :: s_ == 255 -> s_ = 0; break :: else -> s_ = 0 fi
            :: else -> break
            od;
            o_ = 0;
            if
            :: q == d -> break
            :: else
            fi;
            kf = q;                                           /* C3 */
            d_step { sb_n[0] == 0 -> mem[A_K] = kf }
            d_step {
                LD(0, A_H, e2);
                sure = d;                                     /* C4 */
                f = ((e2 + M - 1) / M) * M
            }
            if
            :: f > d + C ->
#if !defined(FENCE_MODE) && !defined(MUTANT_NO_POP_BARRIER)
                MEMBARRIER;
                d_step { LD(0, A_H, e2) }
#endif
                if :: e2 > d + C -> if :: e2 - C < kf -> sure = e2 - C :: else -> sure = kf fi :: else fi
            :: else
            fi;
#ifdef MUTANT_NO_DECIDE_WAIT
            sure = d;
#endif
            p = d;
            do
            :: p < kf ->
                if
                :: p < sure ->
                    (mem[A_STAMP(p % C)] != PUB(p));          /* the pusher of p + C decides */
                    d_step {
                        LD(0, A_STAMP(p % C), s_);
                        if :: s_ == YLD(p) -> s_ = 1 :: else -> assert(fate[p] == 2); s_ = 0 fi
                    }
                :: else ->
                    d_step {
                        LD(0, A_STAMP(p % C), s_);
                        if :: s_ > YLD(p) -> assert(fate[p] == 2); s_ = 0 :: else -> s_ = 1 fi
                    }
                fi;
                if :: s_ == 1 -> s_ = 0; deliver(p) :: else fi;    /* C5 */
                p++
            :: else -> break
            od;
            skip;
            /* Still ours until R moves: nobody wrote a slot we copied. */
            d_step {
                p = d;
                do
                :: p < kf -> if :: fate[p] == 1 -> assert(mem[A_D(p % C)] == p) :: else fi; p++
                :: else -> break
                od;
                p = 0
            }
            d_step { sb_n[0] < SB -> ST(0, A_R, kf); e = 0; e2 = 0; d = 0; q = 0; f = 0; sure = 0 }
        :: else -> break
        od;
        pops++
    :: else -> break
    od;
    finished++
}

init {
    byte j, h, kk, consumed, q, s_;
    d_step {
        j = 0;
        do
        :: j < C -> mem[A_STAMP(j)] = FREE(j); j++
        :: else -> break
        od;
#ifdef SHARED_FROM_START
        mem[A_OWNER] = SHARED;
#endif
        j = 0
    }
    atomic {
        run Flusher(0); run Flusher(1); run Flusher(2);
        run Consumer(); run Producer(1, NP); run Producer(2, NI)
    }
    (finished == 3);
    d_step {
        DRAIN(0); DRAIN(1); DRAIN(2);
        h = mem[A_H];
        kk = mem[A_K];
        if :: h > C && h - C > kk -> consumed = h - C :: else -> consumed = kk fi;
        assert(mem[A_R] == kk);
        assert(mem[A_OSEQ] % 2 == 0);
        assert(h + busy == NP + NI);
        assert(consumed - delivered == evictions);
        q = 0;
        do
        :: q < h ->
            assert(claimed[q] == DONE);
            if
            :: q < consumed -> assert(fate[q] != 0)
            :: else -> assert(fate[q] == 0)
            fi;
            q++
        :: else -> break
        od;
        j = 0;
        do
        :: j < C ->
            s_ = mem[A_STAMP(j)];
            if
            :: h <= j -> assert(s_ == FREE(j))
            :: else ->
                q = j + ((h - 1 - j) / C) * C;
                assert(s_ == PUB(q) || (s_ == YLD(q) && q < kk));
                assert(mem[A_D(j)] == q)
            fi;
            j++
        :: else -> break
        od
    }
}
