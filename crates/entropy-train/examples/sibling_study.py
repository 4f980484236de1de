"""Within-group (sibling) fit of the linear evaluation versus the absolute fit.

Usage: python sibling_study.py SIBLINGS.csv [WEIGHTS_OUT] (SIBLINGS.csv from the dump_siblings
example). Prints the held-out within-group RMSE and the regret of the move the evaluation
prefers among siblings, for the shipped weights, an absolute fit and a within-group fit; with
WEIGHTS_OUT, writes the shipped weights with every fitted bucket refitted within groups.
"""
import os, sys, numpy as np
SHIPPED = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../entropy-engine/weights/trained.txt')
path = sys.argv[1]
raw = np.genfromtxt(path, delimiter=',', dtype=str)
game = raw[:,0].astype(int); grp = raw[:,1]; role = raw[:,2].astype(int); turn = raw[:,3].astype(int)
bucket = raw[:,4].astype(int); played = raw[:,5].astype(int)
X = raw[:,6:21].astype(float); y = raw[:,21].astype(float)
_, gid = np.unique(grp, return_inverse=True)
# shipped weights
W = {}
phases = {'draw':0,'place':1,'slide':2}
for line in open(SHIPPED):
    p = line.split()
    if p and p[0] in phases:
        W[phases[p[0]]*13 + int(p[1])//4] = np.array([float(v) for v in p[2:]])
test = game % 5 == 0
def demean(v, g):
    s = np.bincount(g, weights=v) ; n = np.bincount(g)
    return v - (s/np.maximum(n,1))[g]
def ridge(A, b, lam):
    n = A.shape[1]
    return np.linalg.solve(A.T@A + lam*np.eye(n), A.T@b)
def fits(mask, lam=1e-3, mix=None):
    """slopes per bucket: absolute (with intercept) and within-group (demeaned)."""
    out = {}
    for b in np.unique(bucket[mask]):
        m = mask & (bucket == b)
        if m.sum() < 200: continue
        A = np.c_[np.ones(m.sum()), X[m]]
        wa = ridge(A, y[m], lam)
        g = gid[m]; _, g = np.unique(g, return_inverse=True)
        Xd = np.column_stack([demean(X[m][:,j], g) for j in range(15)]); yd = demean(y[m], g)
        ww = ridge(Xd, yd, lam)
        # features constant within every group (the bag's): the shipped slope
        const = Xd.std(axis=0) < 1e-9
        ww[const] = W[b][1:][const]
        # the intercept keeps the shipped evaluation's mean level on these samples
        ship = W[b][0] + X[m] @ W[b][1:]
        icpt = ship.mean() - X[m].mean(axis=0) @ ww
        out[b] = (wa, np.r_[icpt, ww])
    return out
F = fits(~test)
def metrics(pred, mask):
    res = {}
    for r in (0,1,2):
        m = mask & (role == r)
        g = gid[m]; _, g = np.unique(g, return_inverse=True)
        e = demean(pred[m], g) - demean(y[m], g)
        # regret: chosen by prediction vs best target
        order = np.lexsort((pred[m] if r==1 else -pred[m], g))
        first = np.r_[True, g[order][1:] != g[order][:-1]]
        chosen = y[m][order][first]
        best = (np.minimum if r==1 else np.maximum).reduceat(y[m][order], np.flatnonzero(first))
        regret = np.abs(best - chosen)
        res[r] = (np.sqrt(np.mean(e**2)), regret.mean(), (regret>1e-9).mean())
    return res
def predict(kind):
    p = np.full(len(y), np.nan)
    for i in range(len(y)):
        pass
    for b in np.unique(bucket):
        m = bucket == b
        if kind == 'shipped': w = W[b]
        else:
            if b not in F: w = W[b]
            else: w = F[b][0 if kind=='abs' else 1]
        p[m] = w[0] + X[m] @ w[1:]
    return p
for kind in ('shipped','abs','within'):
    mt = metrics(predict(kind), test)
    print(f"{kind:8s} Order: within-RMSE {mt[0][0]:.3f} regret {mt[0][1]:.3f} wrong {mt[0][2]:.2f} | Chaos: within-RMSE {mt[1][0]:.3f} regret {mt[1][1]:.3f} wrong {mt[1][2]:.2f} | drawn: {mt[2][0]:.3f} regret {mt[2][1]:.3f}")
# by turn range
for lo, hi in ((0,15),(16,31),(32,48)):
    tm = test & (turn>=lo) & (turn<=hi)
    s = []
    for kind in ('shipped','abs','within'):
        mt = metrics(predict(kind), tm)
        s.append(f"{kind}: O {mt[0][0]:.3f}/{mt[0][1]:.3f} C {mt[1][0]:.3f}/{mt[1][1]:.3f} D {mt[2][0]:.3f}/{mt[2][1]:.3f}")
    print(f"turns {lo}-{hi}: " + " | ".join(s))
# the weights file: the shipped one with every fitted bucket's line replaced
if len(sys.argv) > 2:
    F = fits(np.ones(len(y), bool))
    names = ['draw','place','slide']
    out = []
    for line in open(SHIPPED):
        p = line.split()
        if p and p[0] in phases:
            b = phases[p[0]]*13 + int(p[1])//4
            if b in F:
                line = p[0] + ' ' + p[1] + ' ' + ' '.join(f'{v:.6f}' for v in F[b][1]) + '\n'
        elif line.startswith('# made by'):
            line = '# made by: dump_siblings 1000 3000 8 3 (depth-3 values of siblings), fitted within groups by crates/entropy-train/examples/sibling_study.py over the shipped weights\n'
        elif line.startswith('# generation'):
            continue
        out.append(line)
    open(sys.argv[2], 'w').write(''.join(out))
    print('wrote', sys.argv[2], len(F), 'buckets refitted')
