//! The whole-board network agent: one move ahead over [`BoardNet`], every afterstate of a
//! decision valued in one batch, no deeper search.

use entropy_core::{Move, Phase, Position, Role, Size};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::net::{play_best, NetBot};
use super::networks::{BoardNet, PolicyNet};
use crate::eval::{best_afterstate, best_valued, decider_is_order, Evaluator, LinearEval};
use crate::search::observer::Observer;
use crate::{Bot, Budget};

/// Plays the move whose afterstate the network values best (Order the highest, Chaos the
/// lowest, the first of equals). Boards of another size are played one move ahead over the
/// linear evaluation.
pub struct WnetBot {
    name: String,
    net: BoardNet,
    rng: Xoshiro256PlusPlus,
    expected: Option<f64>,
}

impl WnetBot {
    /// The agent over this network.
    pub fn new(name: &str, net: BoardNet, seed: u64) -> WnetBot {
        WnetBot {
            name: name.to_owned(),
            net,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            expected: None,
        }
    }

    /// The best move of a decision and its value, `None` where it is not a decision.
    pub fn best(&self, position: &Position) -> Option<(Move, f64)> {
        if position.size().side() != self.net.side() {
            return best_afterstate(position, |p| LinearEval::trained_ref().evaluate(p));
        }
        let order = decider_is_order(position)?;
        let moves = position.legal_moves();
        let afters: Vec<Position> = moves
            .iter()
            .map(|&mv| {
                let mut after = *position;
                after.play_unchecked(mv);
                after
            })
            .collect();
        let values = self.net.values(&afters);
        best_valued(order, moves.iter().copied().zip(values))
    }
}

impl Bot for WnetBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _size: Size, _role: Role) {
        self.expected = None;
    }

    fn choose(&mut self, position: &Position, _budget: Budget) -> Move {
        let best = self.best(position);
        play_best(best, &mut self.expected, position, &mut self.rng)
    }

    fn expected_score(&self) -> Option<f64> {
        self.expected
    }
}

/// A policy network of `pnet`: given, or one of the shipped ones, loaded when first asked for a
/// move. A CodeCup program plays one role a game, so the other role's networks (a tract plan
/// each, about 4.5 MB) need not take its memory.
enum Policy {
    Given(PolicyNet),
    Shipped {
        order: bool,
        load: fn() -> PolicyNet,
        net: std::cell::OnceCell<PolicyNet>,
    },
}

impl Policy {
    fn shipped_chaos(load: fn() -> PolicyNet) -> Policy {
        Policy::Shipped {
            order: false,
            load,
            net: std::cell::OnceCell::new(),
        }
    }

    fn plays_order(&self) -> bool {
        match self {
            Policy::Given(net) => net.plays_order(),
            Policy::Shipped { order, .. } => *order,
        }
    }

    fn net(&self) -> &PolicyNet {
        match self {
            Policy::Given(net) => net,
            Policy::Shipped { load, net, .. } => net.get_or_init(load),
        }
    }
}

/// The experimental agent `pnet`: each role by its policy network where one is given (one
/// forward pass per decision), otherwise as `net` (one move ahead over the n-tuple evaluation).
///
/// It reads its opponent as the searcher does (were at least 90% of its last 12 moves, and
/// at least 6, what the greedy bot could have played?) and, where it has a policy for a
/// greedy opponent in this role, plays that one while the opponent reads as greedy.
pub struct PnetBot {
    name: String,
    policies: Vec<Policy>,
    against_greedy: Vec<Policy>,
    observer: Observer,
    /// `net`, made at the first decision of a role without a policy.
    fallback: Option<NetBot>,
    seed: u64,
    game: Option<(Size, Role)>,
    expected: Option<f64>,
}

impl PnetBot {
    /// The agent over these policy networks (one per role at most), and those for a greedy
    /// opponent (one per role at most).
    pub fn new(
        name: &str,
        policies: Vec<PolicyNet>,
        against_greedy: Vec<PolicyNet>,
        seed: u64,
    ) -> PnetBot {
        PnetBot::over(
            name,
            policies.into_iter().map(Policy::Given).collect(),
            against_greedy.into_iter().map(Policy::Given).collect(),
            seed,
        )
    }

    /// The agent over the shipped Chaos policy, and the shipped one against a greedy Order
    /// unless `against_greedy` holds a Chaos policy (Order's, if given, is kept).
    pub fn shipped(name: &str, against_greedy: Vec<PolicyNet>, seed: u64) -> PnetBot {
        let mut greedy: Vec<Policy> = against_greedy.into_iter().map(Policy::Given).collect();
        if !greedy.iter().any(|p| !p.plays_order()) {
            greedy.push(Policy::shipped_chaos(PolicyNet::shipped_chaos_greedy));
        }
        let policies = vec![Policy::shipped_chaos(PolicyNet::shipped_chaos)];
        PnetBot::over(name, policies, greedy, seed)
    }

    fn over(name: &str, policies: Vec<Policy>, against_greedy: Vec<Policy>, seed: u64) -> PnetBot {
        PnetBot {
            name: name.to_owned(),
            policies,
            against_greedy,
            observer: Observer::new(LinearEval::trained(), None, None),
            fallback: None,
            seed,
            game: None,
            expected: None,
        }
    }

    /// Whether it plays its policy for a greedy opponent now.
    pub fn exploits_greedy(&self) -> bool {
        !self.against_greedy.is_empty() && self.observer.opponent_is_greedy()
    }

    /// `net`, for a role without a policy: made (and its models loaded) on first use. With a
    /// Chaos policy it plays only Order, so Chaos's n-tuple values are not loaded.
    fn fallback(&mut self) -> &mut NetBot {
        let chaos_policy = self.policies.iter().any(|p| !p.plays_order());
        let (seed, game) = (self.seed, self.game);
        self.fallback.get_or_insert_with(|| {
            let mut net = if chaos_policy {
                NetBot::order_only(seed)
            } else {
                NetBot::new(seed)
            };
            if let Some((size, role)) = game {
                net.new_game(size, role);
            }
            net
        })
    }
}

impl Bot for PnetBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, size: Size, role: Role) {
        self.expected = None;
        self.observer.reset();
        self.game = Some((size, role));
        if let Some(fallback) = &mut self.fallback {
            fallback.new_game(size, role);
        }
    }

    fn choose(&mut self, position: &Position, budget: Budget) -> Move {
        // Only a role with a policy for a greedy opponent watches for one: the other plays as
        // `net`, which watches for itself.
        let order = position.phase() == Phase::Slide;
        let watching = self.against_greedy.iter().any(|p| p.plays_order() == order);
        if watching {
            self.observer.observe(position);
        }
        let against_greedy = self.exploits_greedy();
        let policies = against_greedy
            .then_some(&self.against_greedy)
            .into_iter()
            .chain([&self.policies]);
        let played = policies
            .flatten()
            .filter(|p| p.plays_order() == order)
            .find_map(|p| p.net().best_move(position));
        let mv = match played {
            Some(mv) => {
                let mut after = *position;
                after.play_unchecked(mv);
                self.expected = Some(LinearEval::trained_ref().evaluate(&after));
                mv
            }
            None => {
                let fallback = self.fallback();
                let mv = fallback.choose(position, budget);
                self.expected = fallback.expected_score();
                mv
            }
        };
        if watching {
            self.observer.played(position, mv);
        }
        mv
    }

    fn expected_score(&self) -> Option<f64> {
        self.expected
    }
}
