# Scratch study (2026-12-04): the evaluation's buckets of 4 turns against the same fit turn by turn
# (and in 2-turn buckets, interpolated between buckets, and as a joint piecewise-linear fit).
# Usage: python bucket_study.py FILE.csv  (the CSV from the dump_samples example; numpy)
import sys, numpy as np
d = np.loadtxt(sys.argv[1], delimiter=",")
game, turn, bucket = d[:,0].astype(int), d[:,1].astype(int), d[:,2].astype(int)
X = d[:,3:18]; y = d[:,18]
# Buckets are phase x 13 groups of 4 turns, or phase x 49 turns in a build with TURN_GROUP = 1.
phase = bucket // (49 if bucket.max() >= 39 else 13)
test = game % 5 == 0; train = ~test
G = 4
def ridge(A, t, lam=1e-3):
    var = A.var(0) + 1e-6
    var[A.std(0) < 1e-9] = 0  # constant columns (the intercept) unpenalised
    return np.linalg.solve(A.T@A + lam*np.diag(var)*len(t) + 1e-9*np.eye(A.shape[1]), A.T@t)
def report(name, pred):
    r = pred - y
    m = test
    rm = np.sqrt((r[m]**2).mean())
    mid = m & (turn >= 16) & (turn <= 31)
    # within (turn, phase): residual minus its mean over the test set's (turn, phase)
    key = turn*3 + phase
    rw = r.copy()
    for k in np.unique(key[m]):
        s = m & (key == k); rw[s] -= r[s].mean()
    print(f"{name:<34} rmse {rm:.4f}  turns16-31 {np.sqrt((r[mid]**2).mean()):.4f}  within-turn {np.sqrt((rw[m]**2).mean()):.4f}  w16-31 {np.sqrt((rw[mid]**2).mean()):.4f}")
A1 = np.c_[np.ones(len(y)), X]
# A: hard buckets of G turns
def hard(group):
    pred = np.zeros_like(y); W = {}
    for p in range(3):
        for g in range(48//group + 1):
            s = (phase == p) & (np.minimum(turn,48)//group == g)
            tr = s & train
            if tr.sum() < 30: continue
            w = ridge(A1[tr], y[tr]); W[(p,g)] = w
            pred[s] = A1[s] @ w
    return pred, W
predA, WA = hard(4)
report("hard 4-turn buckets", predA)
# B: the same weights interpolated between group centres (4g + 1.5)
predB = np.zeros_like(y)
cent = np.array([4*g + 1.5 for g in range(13)])
for p in range(3):
    Ws = np.array([WA.get((p,g), WA.get((p,min(g,12)))) for g in range(13)])
    for t in range(49):
        s = (phase == p) & (turn == t)
        if not s.any(): continue
        g = min(t, 48)//4
        c = cent[g]
        if t < c and g > 0: o = g-1
        elif t > c and g < 12: o = g+1
        else: o = g
        a = abs(t - c)/4.0 if o != g else 0.0
        w = (1-a)*Ws[g] + a*Ws[o]
        predB[s] = A1[s] @ w
report("hard, interpolated at eval", predB)
# C: joint piecewise-linear fit (hat functions at the centres), per phase
predC = np.zeros_like(y)
for p in range(3):
    s = phase == p
    t = turn[s].astype(float)
    H = np.zeros((s.sum(), 13))
    for g in range(13):
        H[:, g] = np.clip(1 - np.abs(t - cent[g])/4.0, 0, 1)
    # clamp ends: before the first centre / after the last, all weight on the end anchor
    H[t <= cent[0], :] = 0; H[t <= cent[0], 0] = 1
    H[t >= cent[12], :] = 0; H[t >= cent[12], 12] = 1
    Z = (H[:, :, None] * A1[s][:, None, :]).reshape(s.sum(), -1)
    tr = train[s]
    w = ridge(Z[tr], y[s][tr])
    predC[s] = Z @ w
report("joint piecewise-linear", predC)
for grp in (1, 2):
    pr, _ = hard(grp)
    report(f"hard {grp}-turn buckets", pr)
