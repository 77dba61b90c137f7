/* The loops that run inside the core, as Python functions: play_hands (whole hands by the
 * policies). Included by _core.c only, after the Tables and State objects. (The research env's
 * tables stepped together are EnvBatch, envloop.h.) */
#ifndef UNOTABLE_LOOPS_H
#define UNOTABLE_LOOPS_H

/* What play_hands plays, its hands' inputs and where their results go. */
typedef struct {
    const Tables *tb;
    const uint64_t *seeds;
    Py_ssize_t count;
    const uint8_t *dealers;
    int dealer_arg, ncand, fast, keyed;
    uint64_t *keys;
    const uint8_t *policies;
    uint64_t pick_seed;
    long long max_actions;
    int8_t *winners;
    int32_t *actions, *hand_pts, *points, *scores, *decisions, *uno_calls;
    int cand[MAXP];
} PlayJob;

/* play_hands' loop, with the processor's popcnt instruction (``hw``) or without: 0, or 1 when a
 * deal failed, 2 when a hand did not end within max_actions. */
static inline __attribute__((always_inline)) int play_job_on(const PlayJob *job, int hw) {
    const Tables *tb = job->tb;
    const uint64_t *seeds = job->seeds;
    const uint8_t *dealers = job->dealers, *policies = job->policies;
    uint64_t *keys = job->keys;
    int n = tb->n, dealer_arg = job->dealer_arg, ncand = job->ncand, fast = job->fast, keyed = job->keyed;
    Py_ssize_t count = job->count;
    uint64_t pick_seed = job->pick_seed;
    long long max_actions = job->max_actions;
    int8_t *winners = job->winners;
    int32_t *actions = job->actions, *hand_pts = job->hand_pts, *points = job->points, *scores = job->scores,
            *decisions = job->decisions, *uno_calls = job->uno_calls;
    int err = 0;
    for (Py_ssize_t h = 0; h < count && !err; h++) {
        UState st;
        int ids[MAXIDS], c2[MAXP];
        memcpy(c2, job->cand, sizeof c2);
        uint64_t seed = seeds[h];
        int dealer = dealers ? dealers[h] : dealer_arg == -2 ? (int)(seed % (uint64_t)n) : dealer_arg;
        if (keyed && h % 8 == 0) {
            uint64_t x[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            for (Py_ssize_t j = 0; j < 8 && h + j < count; j++) x[j] = deal_shake_input(seeds[h + j]);
            shake128_words_x8(x, keys, tb->ndeck);
        }
        if ((keyed ? new_hand_keyed(tb, &st, seed, dealer, keys + (h % 8) * MAXC)
                   : new_hand(tb, &st, seed, dealer, c2, ncand, fast)) < 0) {
            err = 1;
            break;
        }
        Picker pk = {seed_to_rng(pick_seed ^ seed_to_rng(seed))};
        Held held;
        held_init(&held, &st);
        long long count_actions = 0;
        int32_t *dec_h = decisions + h * n, *uno_h = uno_calls + h * n;
        while (st.current >= 0) {
            if (count_actions >= max_actions) {
                err = 2;
                break;
            }
            int seat = st.current, policy = policies[seat];
            count_actions++;
            dec_h[seat]++;
            if (policy != POL_GREEDY && st.phase <= P_AFTER_DRAW) { /* the common phases, no list */
                int t, arg, mater = 0;
                uint64_t bits = st.phase == P_TURN ? held_playable(tb, &st, &held, seat, &mater) : 0;
                int aid = quick_choose(tb, &st, seat, policy, &pk, bits, mater, hw, &t, &arg);
                if (t >= 0) {
                    int uno = tb->a_uno[aid];
                    uno_h[seat] += uno;
                    held_remove(&held, seat, t);
                    step_play(tb, &st, seat, t, arg, uno);
                } else if (aid == tb->draw_id) {
                    step_draw(tb, &st, seat);
                } else {
                    step(tb, &st, seat, aid);
                }
                held_sync(&held, &st, seat);
                continue;
            }
            int k = legal_ids(tb, &st, seat, ids);
            int aid = policy_choose(tb, &st, seat, policy, &pk, ids, k);
            int kind = tb->a_kind[aid];
            if (tb->a_uno[aid]) uno_h[seat]++;
            if (kind == K_PLAY || kind == K_INVIS) held_remove(&held, seat, kind == K_PLAY ? tb->a_card[aid] : C_INVIS);
            step(tb, &st, seat, aid);
            held_sync(&held, &st, seat);
        }
        winners[h] = st.winner;
        actions[h] = (int32_t)count_actions;
        hand_pts[h] = st.hand_points;
        hand_points_of(tb, &st, points + h * n);
        memcpy(scores + h * n, st.scores, (size_t)n * 4);
    }
    return err;
}

static int play_job_plain(const PlayJob *job) { return play_job_on(job, 0); }

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
/* The same loop compiled for processors with popcnt (x86-64 since 2008), chosen at run time:
 * the portable build counts bits in twelve instructions instead (popcount64). */
__attribute__((target("popcnt"))) static int play_job_popcnt(const PlayJob *job) { return play_job_on(job, 1); }
#endif

/* ``portable``: the portable loop even where popcnt is there (the tests compare both). */
static int play_job(const PlayJob *job, int portable) {
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    if (!portable && __builtin_cpu_supports("popcnt")) return play_job_popcnt(job);
#endif
    (void)portable;
    return play_job_plain(job);
}

/* play_hands(tables, seeds, dealer, candidates, dealers, policies, pick_seed, max_actions[, fast[,
 * portable]])
 * -> (winners, actions, hand_points, points, scores, decisions, uno_calls): one hand per seed (an
 * array of uint64 seeds), played to its end by the seats' policies (bytes, one per seat:
 * 0 random, 1 plays-first, 2 greedy). The dealer: ``dealers[h]`` when ``dealers`` has one byte per
 * hand; else ``dealer`` (a seat; -1: drawn among ``candidates``; -2: seed % n). ``fast``: every
 * shuffle is shuffle_fast's (other deals than the Python engine's, far cheaper). ``portable``: the
 * loop built without popcnt even where the processor has it (tests). The picks of hand
 * h come from a stream seeded by (pick_seed, seeds[h]), so a hand's result depends on its seed,
 * its dealer and pick_seed alone, never on the batch it is played in. Returns bytes: int8
 * winners; int32 actions and hand points; int32 per seat and hand (n per hand): points left in
 * hand, scores (the hand's, from zero), decisions, plays of the next-to-last card (UNO called). */
static PyObject *py_play_hands(PyObject *mod, PyObject *args) {
    TablesObject *tables;
    PyObject *seeds_obj, *cand_obj, *pol_obj, *dealers_obj;
    int dealer_arg, cand[MAXP], ncand = 0, fast = 0, portable = 0;
    unsigned long long pick_seed;
    long long max_actions;
    if (!PyArg_ParseTuple(args, "O!OiOOOKL|pp", &TablesType, &tables, &seeds_obj, &dealer_arg, &cand_obj,
                          &dealers_obj, &pol_obj, &pick_seed, &max_actions, &fast, &portable))
        return NULL;
    const Tables *tb = &tables->tb;
    int n = tb->n;
    uint8_t policies[MAXP];
    Py_buffer sv, pv, dv;
    if (dealer_arg == -1 && parse_candidates(cand_obj, n, cand, &ncand) < 0) return NULL;
    if (dealer_arg >= n || dealer_arg < -2) {
        PyErr_SetString(PyExc_ValueError, "bad dealer");
        return NULL;
    }
    if (read_bytes(pol_obj, n, "policies", &pv) < 0) return NULL;
    memcpy(policies, pv.buf, (size_t)n);
    PyBuffer_Release(&pv);
    for (int s = 0; s < n; s++)
        if (policies[s] > POL_GREEDY) {
            PyErr_SetString(PyExc_ValueError, "unknown policy");
            return NULL;
        }
    if (PyObject_GetBuffer(seeds_obj, &sv, PyBUF_SIMPLE) < 0) return NULL;
    if (PyObject_GetBuffer(dealers_obj, &dv, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&sv);
        return NULL;
    }
    Py_ssize_t count = sv.len / 8;
    PyObject *w = NULL, *a = NULL, *hp = NULL, *pts = NULL, *sc = NULL, *dec = NULL, *unos = NULL;
    if (sv.len % 8 || (dv.len && dv.len != count)) {
        PyErr_SetString(PyExc_ValueError, "seeds must be 64-bit numbers, dealers one byte per seed or none");
        goto fail;
    }
    for (Py_ssize_t i = 0; i < dv.len; i++)
        if (((uint8_t *)dv.buf)[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "bad dealer");
            goto fail;
        }
    w = PyBytes_FromStringAndSize(NULL, count);
    a = PyBytes_FromStringAndSize(NULL, count * 4);
    hp = PyBytes_FromStringAndSize(NULL, count * 4);
    pts = PyBytes_FromStringAndSize(NULL, count * 4 * n);
    sc = PyBytes_FromStringAndSize(NULL, count * 4 * n);
    dec = PyBytes_FromStringAndSize(NULL, count * 4 * n);
    unos = PyBytes_FromStringAndSize(NULL, count * 4 * n);
    if (!w || !a || !hp || !pts || !sc || !dec || !unos) goto fail;
    int8_t *winners = (int8_t *)PyBytes_AS_STRING(w);
    int32_t *actions = (int32_t *)PyBytes_AS_STRING(a), *hand_pts = (int32_t *)PyBytes_AS_STRING(hp),
            *points = (int32_t *)PyBytes_AS_STRING(pts), *scores = (int32_t *)PyBytes_AS_STRING(sc),
            *decisions = (int32_t *)PyBytes_AS_STRING(dec), *uno_calls = (int32_t *)PyBytes_AS_STRING(unos);
    const uint64_t *seeds = sv.buf;
    const uint8_t *dealers = dv.len ? dv.buf : NULL;
    int err = 0;
    memset(decisions, 0, (size_t)(count * n) * 4);
    memset(uno_calls, 0, (size_t)(count * n) * 4);
    /* With the engine's deals and the dealers known, the decks' SHAKE-128 words are made eight
     * hands at a time (shake128_words_x8): the same deals, cheaper (see there). */
    int keyed = !fast && (dealers || dealer_arg != -1);
    uint64_t *keys = keyed ? PyMem_Malloc(8 * MAXC * sizeof(uint64_t)) : NULL;
    if (keyed && !keys) {
        PyErr_NoMemory();
        goto fail;
    }
    PlayJob job = {tb, seeds, count, dealers, dealer_arg, ncand, fast, keyed, keys, policies, pick_seed, max_actions,
                   winners, actions, hand_pts, points, scores, decisions, uno_calls};
    memcpy(job.cand, cand, sizeof cand);
    Py_BEGIN_ALLOW_THREADS;
    err = play_job(&job, portable);
    Py_END_ALLOW_THREADS;
    PyMem_Free(keys);
    if (err) {
        PyErr_SetString(PyExc_RuntimeError, err == 1 ? "a deal failed" : "a hand did not end within max_actions");
        goto fail;
    }
    PyBuffer_Release(&sv);
    PyBuffer_Release(&dv);
    return Py_BuildValue("(NNNNNNN)", w, a, hp, pts, sc, dec, unos);
fail:
    PyBuffer_Release(&sv);
    PyBuffer_Release(&dv);
    Py_XDECREF(w);
    Py_XDECREF(a);
    Py_XDECREF(hp);
    Py_XDECREF(pts);
    Py_XDECREF(sc);
    Py_XDECREF(dec);
    Py_XDECREF(unos);
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* A caller's writable buffer of exactly ``need`` bytes (the env's arrays, envloop.h). */

static int writable(PyObject *obj, Py_buffer *v, Py_ssize_t need, const char *what) {
    if (PyObject_GetBuffer(obj, v, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (v->len != need) {
        PyErr_Format(PyExc_ValueError, "%s must be %zd bytes, not %zd", what, need, v->len);
        PyBuffer_Release(v);
        return -1;
    }
    return 0;
}


#endif /* UNOTABLE_LOOPS_H */
