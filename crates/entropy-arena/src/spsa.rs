//! Simultaneous perturbation stochastic approximation (SPSA), as fishtest and OpenBench tune
//! chess engines: each iteration perturbs every parameter at once by plus or minus its current
//! step, plays the two perturbed players against each other, and moves every parameter along
//! its sign by the result. Two games (one paired deal) estimate a gradient in all dimensions.
//!
//! The schedule is fishtest's: after `k` of `N` iterations the perturbation is
//! `c_k = c_end (N / (k + 1))^gamma` and the learning rate
//! `a_k = r_end c_end^2 ((A + N) / (A + k + 1))^alpha`, with `A = N / 10`, `alpha = 0.602`,
//! `gamma = 0.101`; the update is `theta += a_k result / (c_k delta)`. A parameter's `c_end` is
//! in its own units (how far apart the two players are at the end), and `r_end` is per point of
//! paired margin (the result here is Order's points as the plus player less Order's points as
//! the minus player, on the same chips).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::derive_seed;

/// One parameter being tuned.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// The option's name (`peak`, `hard`: what `search:NAME=VALUE` takes).
    pub name: String,
    /// The current estimate.
    pub value: f64,
    /// The least value a player may be given.
    pub min: f64,
    /// The largest value a player may be given.
    pub max: f64,
    /// The perturbation at the last iteration, in the parameter's units.
    pub c_end: f64,
    /// Whether players take the value rounded to a whole number.
    pub integer: bool,
}

impl SpsaParam {
    /// The value as a player takes it: within bounds, rounded when whole.
    pub fn playable(&self, value: f64) -> f64 {
        let value = value.clamp(self.min, self.max);
        if self.integer {
            value.round()
        } else {
            value
        }
    }
}

/// The SPSA schedule and its state.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The parameters, with their current estimates.
    pub params: Vec<SpsaParam>,
    /// The planned number of iterations N (the schedule's horizon).
    pub iterations: u32,
    /// The learning rate at the last iteration, per point of margin.
    pub r_end: f64,
    /// The seed of the perturbations' signs.
    pub seed: u64,
}

/// One iteration's two players: the values each plays with, and the signs that separate them.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// Iteration number, from 0.
    pub k: u32,
    /// +1 or -1 per parameter.
    pub delta: Vec<f64>,
    /// The plus player's values (playable).
    pub plus: Vec<f64>,
    /// The minus player's values (playable).
    pub minus: Vec<f64>,
}

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

impl Spsa {
    /// The stability constant A of the learning rate: a tenth of the iterations.
    fn stability(&self) -> f64 {
        self.iterations as f64 / 10.0
    }

    /// The perturbation of parameter `i` at iteration `k`.
    pub fn c(&self, i: usize, k: u32) -> f64 {
        let n = self.iterations.max(1) as f64;
        self.params[i].c_end * (n / (k as f64 + 1.0)).powf(GAMMA)
    }

    /// The learning rate of parameter `i` at iteration `k`.
    pub fn a(&self, i: usize, k: u32) -> f64 {
        let n = self.iterations.max(1) as f64;
        let big_a = self.stability();
        let c_end = self.params[i].c_end;
        self.r_end * c_end * c_end * ((big_a + n) / (big_a + k as f64 + 1.0)).powf(ALPHA)
    }

    /// The two players of iteration `k`: signs drawn from the seed and `k` alone, so a resumed
    /// run perturbs as the uninterrupted one would have.
    pub fn perturb(&self, k: u32) -> Perturbation {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(self.seed, &[k as u64]));
        let delta: Vec<f64> = self
            .params
            .iter()
            .map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let side = |sign: f64| {
            self.params
                .iter()
                .enumerate()
                .map(|(i, p)| p.playable(p.value + sign * self.c(i, k) * delta[i]))
                .collect()
        };
        Perturbation {
            k,
            plus: side(1.0),
            minus: side(-1.0),
            delta,
        }
    }

    /// Moves the estimates by iteration `k`'s result: the plus player's mean paired margin over
    /// the minus player, in points per deal. Estimates stay within their bounds.
    pub fn update(&mut self, perturbation: &Perturbation, result: f64) {
        let k = perturbation.k;
        for i in 0..self.params.len() {
            let step = self.a(i, k) * result / (self.c(i, k) * perturbation.delta[i]);
            let p = &mut self.params[i];
            p.value = (p.value + step).clamp(p.min, p.max);
        }
    }
}

/// The searching bot's tunables asked for (`NAME` or `NAME=START`; none: every one), as SPSA
/// parameters at their starting values (the shipped ones unless given), with their ranges and
/// steps ([`entropy_engine::bots::TUNABLES`]).
pub fn tunable_params(asked: &[String]) -> Result<Vec<SpsaParam>, String> {
    use entropy_engine::bots::{tunable, TUNABLES};
    let every: Vec<String> = TUNABLES.iter().map(|t| t.name.to_owned()).collect();
    let asked = if asked.is_empty() { &every[..] } else { asked };
    let mut params: Vec<SpsaParam> = Vec::new();
    for text in asked {
        let (name, start) = match text.split_once('=') {
            Some((name, start)) => (name, Some(start)),
            None => (text.as_str(), None),
        };
        let Some(option) = tunable(name) else {
            return Err(format!(
                "--param {text:?}: no such option; it tunes {}",
                every.join(", ")
            ));
        };
        let value = match start {
            None => option.default_value(),
            Some(start) => match start.parse::<f64>() {
                Ok(v) if v >= option.min && v <= option.max => v,
                _ => {
                    return Err(format!(
                        "--param {text:?}: start from a number from {} to {}",
                        option.min, option.max
                    ))
                }
            },
        };
        if params.iter().any(|p| p.name == name) {
            return Err(format!("--param {name} given twice"));
        }
        params.push(SpsaParam {
            name: name.to_owned(),
            value,
            min: option.min,
            max: option.max,
            c_end: option.step,
            integer: option.integer,
        });
    }
    Ok(params)
}

/// The trajectory file's column names: the iteration, the margin, the forfeits, then each
/// parameter's plus player's value, minus player's value and estimate after the iteration.
pub fn trajectory_header(spsa: &Spsa) -> String {
    let mut columns = vec!["iteration".to_owned(), "margin".into(), "forfeits".into()];
    for prefix in ["plus_", "minus_", ""] {
        columns.extend(spsa.params.iter().map(|p| format!("{prefix}{}", p.name)));
    }
    columns.join(",")
}

/// An iteration as a line of the trajectory file ([`trajectory_header`]).
pub fn trajectory_row(
    spsa: &Spsa,
    perturbation: &Perturbation,
    margin: f64,
    forfeits: usize,
) -> String {
    let mut cells = vec![
        perturbation.k.to_string(),
        margin.to_string(),
        forfeits.to_string(),
    ];
    cells.extend(perturbation.plus.iter().map(|v| v.to_string()));
    cells.extend(perturbation.minus.iter().map(|v| v.to_string()));
    cells.extend(spsa.params.iter().map(|p| p.value.to_string()));
    cells.join(",")
}

/// The estimates and the next iteration from a trajectory file written by an earlier run with
/// the same `settings` line (a new run starts at 0). A line cut short by an interruption is
/// removed from the file: its iteration is played again.
pub fn resume_trajectory(
    path: &std::path::Path,
    mut spsa: Spsa,
    settings: &str,
) -> Result<(Spsa, u32), String> {
    let Ok(mut text) = std::fs::read_to_string(path) else {
        return Ok((spsa, 0));
    };
    if !text.is_empty() && !text.ends_with('\n') {
        text.truncate(text.rfind('\n').map_or(0, |i| i + 1));
        std::fs::write(path, &text)
            .map_err(|e| format!("cannot rewrite {}: {e}", path.display()))?;
    }
    let mut lines = text.lines();
    match lines.next() {
        None => return Ok((spsa, 0)),
        Some(first) if first == settings => {}
        Some(first) => {
            return Err(format!(
                "{} was written by another run ({first}); give the same settings, another \
                 --out, or --fresh to start over",
                path.display()
            ))
        }
    }
    let expected = trajectory_header(&spsa);
    if lines.next().is_some_and(|h| h != expected) {
        return Err(format!(
            "{}: its columns are not {expected}",
            path.display()
        ));
    }
    let n = spsa.params.len();
    let mut next = 0;
    for (i, line) in lines.enumerate() {
        let numbers: Option<Vec<f64>> = line.split(',').map(|c| c.parse().ok()).collect();
        let Some(numbers) = numbers.filter(|v| v.len() == 3 + 3 * n) else {
            return Err(format!(
                "{} line {}: not an iteration ({line:?}); delete the line to resume",
                path.display(),
                i + 3
            ));
        };
        next = numbers[0] as u32 + 1;
        for (p, value) in spsa.params.iter_mut().zip(&numbers[3 + 2 * n..]) {
            p.value = *value;
        }
    }
    Ok((spsa, next))
}

/// The bot name of `base` with these values of the tuned options (and a node limit).
pub fn tuned_spec(base: &str, spsa: &Spsa, values: &[f64], nodes: Option<u64>) -> String {
    let mut options: Vec<String> = spsa
        .params
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{}={}", p.name, v))
        .collect();
    if let Some(nodes) = nodes {
        options.push(format!("nodes={nodes}"));
    }
    let separator = if base.contains(':') { "," } else { ":" };
    format!("{base}{separator}{}", options.join(","))
}

/// How an iteration's games are played: the base bot, the clock (or a node limit), the deals
/// and the threads.
#[derive(Clone, Debug)]
pub struct IterationGames {
    /// The bot both players are made from (`search`, with fixed options).
    pub base: String,
    /// Each player's clock per game, in milliseconds (ignored under a node limit).
    pub clock_ms: u64,
    /// Positions each search may visit instead of playing to the clock.
    pub nodes: Option<u64>,
    /// Paired deals per iteration.
    pub pairs: u32,
    /// Games played at the same time.
    pub jobs: usize,
}

/// Plays one iteration's deals between the plus (A) and minus (B) players: the plus player's
/// mean paired margin per deal less the draws' luck, and the number of forfeits.
pub fn play_iteration(
    games: &IterationGames,
    spsa: &Spsa,
    perturbation: &Perturbation,
) -> (f64, usize) {
    use crate::player::PlayerSpec;
    use crate::record::{GameRecord, MatchKey};
    use crate::tournament::MatchConfig;
    let player =
        |values: &[f64]| PlayerSpec::Builtin(tuned_spec(&games.base, spsa, values, games.nodes));
    let config = MatchConfig {
        key: MatchKey {
            players: [player(&perturbation.plus), player(&perturbation.minus)],
            seed: derive_seed(spsa.seed, &[perturbation.k as u64, 1]),
            // Node-limited players must not lose on time.
            clock_ms: if games.nodes.is_some() {
                600_000
            } else {
                games.clock_ms
            },
            clock_b_ms: None,
            size: 7,
            // The margins less the draws' luck: the same gradient with less noise
            // (docs/testing.md), for a small search a draw.
            luck: Some(crate::luck::DEFAULT_DEPTH),
        },
        deals: games.pairs,
        jobs: games.jobs,
    };
    let mut records: Vec<GameRecord> = Vec::new();
    config.run(&config.tasks(&Default::default()), |record| {
        records.push(record);
        std::ops::ControlFlow::Continue(())
    });
    // All deals are played, so the paired mean is over every one of them.
    let summary = crate::stats::summarize(&records);
    let margin = summary
        .adjusted
        .or(summary.paired)
        .map_or(0.0, |paired| paired.mean);
    (margin, records.iter().map(|r| r.forfeits.len()).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spsa(values: &[f64], iterations: u32) -> Spsa {
        Spsa {
            params: values
                .iter()
                .enumerate()
                .map(|(i, &value)| SpsaParam {
                    name: format!("x{i}"),
                    value,
                    min: -100.0,
                    max: 100.0,
                    c_end: 1.0,
                    integer: false,
                })
                .collect(),
            iterations,
            r_end: 0.005,
            seed: 7,
        }
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let s = spsa(&[0.0], 1000);
        assert!((s.c(0, 999) - 1.0).abs() < 1e-12);
        assert!((s.a(0, 999) - 0.005).abs() < 1e-12);
        assert!(s.c(0, 0) > s.c(0, 500) && s.a(0, 0) > s.a(0, 500));
    }

    #[test]
    fn perturbations_are_reproducible_and_symmetric() {
        let s = spsa(&[1.0, 2.0, 3.0], 100);
        let p = s.perturb(5);
        assert_eq!(p, s.perturb(5));
        for i in 0..3 {
            let centre = (p.plus[i] + p.minus[i]) / 2.0;
            assert!((centre - s.params[i].value).abs() < 1e-12);
            assert_eq!((p.plus[i] - p.minus[i]).signum(), p.delta[i]);
        }
    }

    #[test]
    fn integers_and_bounds_are_respected() {
        let param = SpsaParam {
            name: "n".into(),
            value: 3.0,
            min: 1.0,
            max: 5.0,
            c_end: 1.0,
            integer: true,
        };
        assert_eq!(param.playable(2.6), 3.0);
        assert_eq!(param.playable(9.0), 5.0);
        assert_eq!(param.playable(-9.0), 1.0);
    }

    /// On a noisy game whose expected margin is the difference of a concave payoff
    /// -(x - 3)^2 - (y + 2)^2 between the two players, SPSA walks to (3, -2).
    #[test]
    fn finds_the_optimum_of_a_noisy_payoff() {
        let mut s = spsa(&[-4.0, 5.0], 4000);
        let payoff = |v: &[f64]| -(v[0] - 3.0).powi(2) - (v[1] + 2.0).powi(2);
        let mut noise = Xoshiro256PlusPlus::seed_from_u64(3);
        for k in 0..s.iterations {
            let p = s.perturb(k);
            // A paired margin's noise is about 10 points a deal.
            let gaussian: f64 = (0..12).map(|_| noise.random::<f64>()).sum::<f64>() - 6.0;
            let result = payoff(&p.plus) - payoff(&p.minus) + 10.0 * gaussian;
            s.update(&p, result);
        }
        let (x, y) = (s.params[0].value, s.params[1].value);
        assert!((x - 3.0).abs() < 0.6 && (y + 2.0).abs() < 0.6, "({x}, {y})");
    }
}
