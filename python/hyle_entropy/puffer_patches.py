"""What :mod:`hyle_entropy.train_ppo` changes in PufferLib's trainer (``pufferlib.pufferl.PuffeRL``)
and around it, each beside the code it replaces and each with a test in
``python/tests/test_train_ppo.py`` that compares it with PufferLib's own:

- :func:`puff_advantage`: PufferLib's advantage kernel in plain PyTorch, used where the compiled
  kernel does not load (:func:`ensure_advantage_kernel`);
- :func:`sample_actions` and :func:`score_actions`: ``pufferlib.pytorch.sample_logits`` for
  discrete logits, faster on the CPU and the same distribution (:func:`install_sampler`);
- :func:`keep_freed_memory`: glibc's allocator told to keep freed memory, so training passes do
  not fault their pages back in;
- :func:`trainer_class`: PuffeRL with a one-line progress report instead of its dashboard.
"""

from __future__ import annotations

from typing import Any, Dict, Tuple


def puff_advantage(
    values: Any, rewards: Any, terminals: Any, ratio: Any, advantages: Any, gamma: float, gae_lambda: float, rho_clip: float, c_clip: float
) -> Any:
    """PufferLib's advantage (``pufferlib._C``'s ``compute_puff_advantage``: GAE with V-trace's
    clipped importance ratios) in plain PyTorch, one time step at a time over all rows: the
    slow twin of the compiled kernel, and what training uses where that kernel does not load
    (a PyTorch other than the one its wheel was built for). ``(segments, horizon)`` tensors;
    fills and returns ``advantages``, whose last column stays as it is (zero)."""
    rho = ratio.clamp(max=rho_clip)
    c = ratio.clamp(max=c_clip)
    last = values.new_zeros(values.shape[0])
    for t in range(values.shape[1] - 2, -1, -1):
        nonterminal = 1.0 - terminals[:, t + 1]
        delta = rho[:, t] * (rewards[:, t + 1] + gamma * values[:, t + 1] * nonterminal - values[:, t])
        last = delta + gamma * gae_lambda * c[:, t] * last * nonterminal
        advantages[:, t] = last
    return advantages


def ensure_advantage_kernel() -> None:
    """Where PufferLib's compiled extension did not load, PuffeRL's training would stop at its
    first update: give it the PyTorch advantage instead, and say so."""
    import pufferlib.pufferl

    if not pufferlib.pufferl._C_AVAILABLE:
        print("train_ppo: pufferlib._C did not load; the advantage is computed in PyTorch (puffer_patches.puff_advantage)", flush=True)
        pufferlib.pufferl.compute_puff_advantage = puff_advantage


def log_probabilities(logits: Any) -> Tuple[Any, Any]:
    """The log probabilities and probabilities of ``logits``' softmax (last dimension), by
    ``log_softmax`` and ``softmax``: what PufferLib computes as ``logits - logsumexp`` and
    ``softmax``, with no ``exp`` of the masked logits in eager code. On the CPU, aten's
    vectorised ``exp`` takes 10 to 50 times as long on inputs whose result underflows, as every
    masked logit's does (-1e9: 7.3 ms for 1,024 x 638 values where 0.3 ms is the norm; the
    training pass's logsumexp and its backward took 0.18 s a minibatch of 8,192 rows, these
    0.05 s): ``softmax`` and ``log_softmax`` have kernels of their own."""
    import torch

    return torch.log_softmax(logits, dim=-1), torch.softmax(logits, dim=-1)


def entropy_of(normalized: Any, probs: Any) -> Any:
    """The entropy of each row's distribution, as ``pufferlib.pytorch.entropy`` computes it
    (log probabilities clamped to the dtype's least value, so a masked action adds 0)."""
    import torch

    return -(normalized.clamp(min=torch.finfo(normalized.dtype).min) * probs).sum(-1)


def sample_actions(logits: Any, generator: Any = None) -> Tuple[Any, Any, Any]:
    """One action per row of ``logits`` ``(n, actions)`` drawn from its softmax, with its log
    probability and the distribution's entropy: what ``pufferlib.pytorch.sample_logits``
    returns for discrete logits, drawn by the inverse of the cumulative distribution (one uniform
    number a row) where it calls ``torch.multinomial``, which on the CPU draws an exponential
    number for every action of every row (638 a row, two fifths of collection's PyTorch time).
    Actions of probability 0 (masked) are never drawn."""
    import torch

    normalized, probs = log_probabilities(logits)
    cdf = probs.cumsum(dim=-1)
    u = torch.rand(cdf.shape[:-1] + (1,), generator=generator, dtype=cdf.dtype, device=cdf.device) * cdf[..., -1:]
    action = torch.searchsorted(cdf, u, right=True).squeeze(-1)
    # u can round up to the total: then the last action of nonzero probability.
    last = (probs > 0).cumsum(dim=-1).argmax(dim=-1)
    action = torch.minimum(action, last)
    logprob = normalized.gather(-1, action[..., None]).squeeze(-1)
    return action.int(), logprob, entropy_of(normalized, probs)


def score_actions(logits: Any, action: Any) -> Tuple[Any, Any, Any]:
    """For the actions taken (the training pass's call): ``action``, their log probabilities
    and each row's entropy, as ``pufferlib.pytorch.sample_logits(logits, action)`` returns them
    for discrete logits, by :func:`log_probabilities` (the same values to float rounding, under
    a third of the time with their backward pass)."""
    normalized, probs = log_probabilities(logits)
    taken = action.reshape(logits.shape[0], 1).long()
    return taken.squeeze(-1), normalized.gather(-1, taken).squeeze(-1), entropy_of(normalized, probs)


def install_sampler() -> None:
    """PuffeRL samples and scores actions with ``pufferlib.pytorch.sample_logits``: collection
    draws with :func:`sample_actions` instead (the same distribution) and the training pass
    scores the actions taken with :func:`score_actions` (the same values); anything else that
    is not a tensor of discrete logits still goes to PufferLib's own."""
    import pufferlib.pytorch

    original = getattr(pufferlib.pytorch.sample_logits, "original", pufferlib.pytorch.sample_logits)

    def sample_logits(logits: Any, action: Any = None) -> Any:
        import torch

        if not isinstance(logits, torch.Tensor):
            return original(logits, action)
        if action is None:
            return sample_actions(logits)
        return score_actions(logits, action)

    sample_logits.original = original
    pufferlib.pytorch.sample_logits = sample_logits


def keep_freed_memory() -> bool:
    """Has glibc's malloc keep freed memory for reuse instead of handing it back to the system
    (no ``mmap`` below 1 GiB, no trimming below 2 GiB of free memory at the heap's top, the heap
    grown 256 MiB at a time). PyTorch allocates every large CPU tensor anew, and by default
    glibc maps each one freshly and unmaps it when freed, so every training pass faults its
    pages back in: about 100,000 page faults and a quarter of a second of system time a
    minibatch of 8,192 rows here, where this leaves none (the training pass 0.6-0.7 s instead of
    0.7-0.85, medians on 2 cores). The process's memory stays at its peak, as it would anyway.
    ``False`` where the C library is not glibc."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    m_trim_threshold, m_top_pad, m_mmap_threshold = -1, -2, -3
    # mallopt takes a C int: the largest trim threshold is 2 GiB less a byte.
    settings = ((m_mmap_threshold, 1 << 30), (m_trim_threshold, (1 << 31) - 1), (m_top_pad, 1 << 28))
    return all(mallopt(option, value) == 1 for option, value in settings)


def trainer_class() -> Any:
    """PuffeRL with a one-line progress report instead of its full-screen dashboard."""
    import pufferlib.pufferl

    class Trainer(pufferlib.pufferl.PuffeRL):
        def __init__(self, config: Dict[str, Any], vecenv: Any, policy: Any):
            if config["compile"]:
                # PuffeRL compiles the training pass; collection calls forward_eval, which
                # it leaves as it is.
                import torch

                policy.forward_eval = torch.compile(policy.forward, mode=config["compile_mode"])
            super().__init__(config, vecenv, policy)

        def print_dashboard(self, *args: Any, **kwargs: Any) -> None:
            pass

    return Trainer
