# Scratch study (2026-11-28): per-bucket ridge fit vs the same plus an MLP on its residuals, over
# the 15 features (CSV from `cargo run --release -p entropy-train --example dump_samples -- GAMES NODES [SEED]`).
# Usage: python mlp_study.py FILE.csv [HIDDEN,...] [EPOCHS]
import sys, numpy as np, torch
torch.set_num_threads(2)
path = sys.argv[1]
d = np.loadtxt(path, delimiter=",")
game, turn, bucket = d[:,0].astype(int), d[:,1].astype(int), d[:,2].astype(int)
X = d[:,3:18]; y = d[:,18]
test = game % 5 == 0; train = ~test
NB = 39
def r2(p, t): return 1 - ((p-t)**2).sum()/((t-t.mean())**2).sum()
def report(name, pred):
    within = []
    for b in range(NB):
        m = test & (bucket == b)
        if m.sum() >= 50: within.append(r2(pred[m], y[m]))
    mid = test & (turn >= 20) & (turn <= 30)
    midw = []
    for b in range(NB):
        m = mid & (bucket == b)
        if m.sum() >= 50: midw.append(r2(pred[m], y[m]))
    print(f"{name:<28} all {r2(pred[test], y[test]):.4f} within(median) {np.median(within):.4f}  turns20-30 {r2(pred[mid], y[mid]):.4f} within {np.median(midw):.4f}  rmse {np.sqrt(((pred[test]-y[test])**2).mean()):.3f}")
# per-bucket ridge (as entropy train: ridge relative to variance)
lin = np.zeros_like(y)
for b in range(NB):
    m = bucket == b
    tr = m & train
    if tr.sum() < 20: continue
    A = np.c_[np.ones(tr.sum()), X[tr]]
    var = A.var(0) + 1e-6; var[0] = 0
    w = np.linalg.solve(A.T@A + 1e-3*np.diag(var)*tr.sum(), A.T@y[tr])
    lin[m] = np.c_[np.ones(m.sum()), X[m]] @ w
report("per-bucket linear", lin)
# MLP on residuals: inputs standardised features + bucket one-hot + turn
mu, sd = X[train].mean(0), X[train].std(0) + 1e-9
Z = (X - mu) / sd
onehot = np.eye(NB)[bucket]
inp = np.c_[Z, onehot, turn[:,None]/49.0, (lin[:,None]-y[train].mean())/y[train].std()]
res = y - lin
ti = torch.tensor(inp, dtype=torch.float32); tr_ = torch.tensor(res, dtype=torch.float32)
for hidden in [int(h) for h in (sys.argv[2] if len(sys.argv)>2 else "32,64").split(",")]:
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(inp.shape[1], hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-5)
    idx = np.where(train)[0]
    n_ep = int(sys.argv[3]) if len(sys.argv)>3 else 30
    for ep in range(n_ep):
        np.random.shuffle(idx)
        for i in range(0, len(idx), 512):
            j = idx[i:i+512]
            loss = ((net(ti[j]).squeeze(1) - tr_[j])**2).mean()
            opt.zero_grad(); loss.backward(); opt.step()
        if ep % 10 == 9 or ep == n_ep-1:
            with torch.no_grad(): p = lin + net(ti).squeeze(1).numpy()
            report(f"linear + MLP{hidden} ep{ep+1}", p)
