"""Study (docs/search.md): per-bucket ridge fits of the 15 features with and without the bag's
candidates of dump_extra. Usage: python bag_study.py FILE.csv (numpy)."""
import sys, numpy as np
d = np.loadtxt(sys.argv[1], delimiter=",")
game, turn, bucket = d[:,0].astype(int), d[:,1].astype(int), d[:,2].astype(int)
X = d[:,3:18]; y = d[:,18]; E = d[:,20:]
names = ["pot_bag","bag_pairs","min_add","min2","zero_cells"]
test = game % 5 == 0; train = ~test
NB = int(bucket.max())+1
def fit(Xf):
    pred = np.zeros_like(y)
    for b in range(NB):
        m = bucket == b; tr = m & train
        if tr.sum() < 20: continue
        A = np.c_[np.ones(tr.sum()), Xf[tr]]
        var = A.var(0) + 1e-6; var[0] = 0
        w = np.linalg.solve(A.T@A + 1e-3*np.diag(var)*tr.sum(), A.T@y[tr])
        pred[m] = np.c_[np.ones(m.sum()), Xf[m]] @ w
    return pred
def rep(name, p):
    out = f"{name:<22} rmse {np.sqrt(((p-y)[test]**2).mean()):.4f}"
    for lo, hi in [(0,15),(16,31),(32,48),(20,30)]:
        m = test & (turn>=lo) & (turn<=hi)
        out += f"  t{lo}-{hi} {np.sqrt(((p-y)[m]**2).mean()):.4f}"
    print(out)
rep("base", fit(X))
for i,n in enumerate(names):
    rep("+"+n, fit(np.c_[X, E[:,i]]))
rep("+all", fit(np.c_[X, E]))
# replace potential by pot_bag
Xr = X.copy(); Xr[:,3] = E[:,0]
rep("potential->pot_bag", fit(Xr))
