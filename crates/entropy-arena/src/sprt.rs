//! The sequential probability ratio test on paired margins: a match that stops as soon as the
//! deals played say which of two hypotheses about the mean margin holds.
//!
//! A deal's paired margin (A's score as Order minus B's, same chips; each score less its luck in
//! the draws where the match measures it, [`crate::luck`]) is a continuous score, not
//! a win, draw or loss, so the likelihood is Gaussian: H0 says the mean margin is `m0`, H1 says it
//! is `m1`, and the variance, unknown, is estimated as the match goes. The log-likelihood ratio is
//! the generalised one, with the variance at its maximum-likelihood value under each hypothesis:
//!
//! ```text
//! LLR = n/2 ln( (s^2 + (mean - m0)^2) / (s^2 + (mean - m1)^2) ),   s^2 = sum (x - mean)^2 / n
//! ```
//!
//! Near the hypotheses it is the plug-in form `n (m1 - m0) (2 mean - m0 - m1) / (2 s^2)` that
//! fastchess and OpenBench use on pentanomial game-pair scores. We keep the generalised form:
//! on simulated matches with heavy-tailed margins (the tests) the plug-in form accepts the wrong
//! hypothesis 7% of the time at alpha = beta = 5% (it trusts a small early variance), this one
//! 5.6%, for a few more deals when the true mean lies far beyond the hypotheses. Wald's bounds:
//! accept H1 at `ln((1 - beta) / alpha)`, H0 at `ln(beta / (1 - alpha))`. No decision is taken
//! before [`MIN_DEALS`] deals: with a handful of margins the variance estimate is too noisy, and a
//! small one makes the ratio jump (the simulated error rates in the tests show the effect).
//!
//! Deals are taken in deal order, so a match decides at the same deal however many games ran at
//! once, and a resumed match reaches the same decision as an uninterrupted one.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// No decision before this many deals (see the module doc).
pub const MIN_DEALS: usize = 10;

/// What the test assumes and how sure it must be.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    /// H0: the mean paired margin is at most this (points per deal).
    pub m0: f64,
    /// H1: the mean paired margin is at least this (points per deal); above `m0`.
    pub m1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

impl SprtConfig {
    /// A test of H0 `m0` against H1 `m1`, or what is wrong with the numbers.
    pub fn new(m0: f64, m1: f64, alpha: f64, beta: f64) -> Result<SprtConfig, String> {
        if !(m0.is_finite() && m1.is_finite()) {
            return Err(format!(
                "the SPRT margins must be numbers, not {m0} and {m1}"
            ));
        }
        if m1 <= m0 {
            return Err(format!(
                "the SPRT's H1 margin ({m1}) must be above its H0 margin ({m0})"
            ));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("{name} must be between 0 and 0.5, not {p}"));
            }
        }
        Ok(SprtConfig {
            m0,
            m1,
            alpha,
            beta,
        })
    }

    /// Parses `M0,M1` (as given to `--sprt`).
    pub fn parse_margins(text: &str) -> Result<(f64, f64), String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let [m0, m1] = parts[..] else {
            return Err(format!(
                "{text:?} is not two margins M0,M1 (e.g. 0,5: H0 mean margin <= 0, H1 >= 5)"
            ));
        };
        let number = |s: &str| {
            s.parse::<f64>()
                .map_err(|_| format!("{s:?} in {text:?} is not a number"))
        };
        Ok((number(m0)?, number(m1)?))
    }

    /// The log-likelihood ratio below which H0 is accepted.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The log-likelihood ratio above which H1 is accepted.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
}

/// Which hypothesis a test accepted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hypothesis {
    /// The mean margin is at most `m0`.
    H0,
    /// The mean margin is at least `m1`.
    H1,
}

/// Where a test stands: written into the summary and into every game record.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtStatus {
    /// The test.
    pub config: SprtConfig,
    /// Deals counted: the complete deals 0, 1, ... in order, up to the first incomplete one
    /// or up to the deal that decided.
    pub deals: usize,
    /// Their mean margin.
    pub mean: f64,
    /// The log-likelihood ratio of H1 against H0 over those deals.
    pub llr: f64,
    /// The bound below which H0 is accepted.
    pub lower: f64,
    /// The bound above which H1 is accepted.
    pub upper: f64,
    /// The hypothesis accepted, if the test has decided.
    pub decision: Option<Hypothesis>,
}

impl SprtStatus {
    /// The test's result in one line, as match summaries print it.
    pub fn line(&self) -> String {
        let c = &self.config;
        let test = format!(
            "SPRT [{}, {}] (alpha {}, beta {}): LLR {:+.3}, bounds ({:.3}, {:.3}), {} deals, mean {:+.1}",
            c.m0, c.m1, c.alpha, c.beta, self.llr, self.lower, self.upper, self.deals, self.mean
        );
        match self.decision {
            Some(Hypothesis::H1) => format!("{test}: H1 accepted (A's margin >= {})", c.m1),
            Some(Hypothesis::H0) => format!("{test}: H0 accepted (A's margin <= {})", c.m0),
            None => {
                format!("{test}: no decision yet (more deals with a larger --deals go on with it)")
            }
        }
    }
}

/// A running test: margins are added one deal at a time.
#[derive(Clone, Debug)]
pub struct Sprt {
    config: SprtConfig,
    n: usize,
    sum: f64,
    sum_squares: f64,
    decision: Option<Hypothesis>,
}

impl Sprt {
    /// A test that has seen no deal.
    pub fn new(config: SprtConfig) -> Sprt {
        Sprt {
            config,
            n: 0,
            sum: 0.0,
            sum_squares: 0.0,
            decision: None,
        }
    }

    /// The test over these margins in order, stopping at the first decision.
    pub fn over(config: SprtConfig, margins: impl IntoIterator<Item = f64>) -> Sprt {
        let mut test = Sprt::new(config);
        for margin in margins {
            if test.add(margin).is_some() {
                break;
            }
        }
        test
    }

    /// Counts one more deal's margin and returns the decision, if there is one now. Once decided,
    /// further margins are ignored: the decision stands.
    pub fn add(&mut self, margin: f64) -> Option<Hypothesis> {
        if self.decision.is_none() {
            self.n += 1;
            self.sum += margin;
            self.sum_squares += margin * margin;
            if self.n >= MIN_DEALS {
                let llr = self.llr();
                if llr >= self.config.upper() {
                    self.decision = Some(Hypothesis::H1);
                } else if llr <= self.config.lower() {
                    self.decision = Some(Hypothesis::H0);
                }
            }
        }
        self.decision
    }

    /// The log-likelihood ratio of H1 against H0 over the deals counted.
    pub fn llr(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        let n = self.n as f64;
        let mean = self.sum / n;
        // A floor keeps identical margins (variance 0) from dividing by zero; margins are whole
        // points, so their rounding alone has a variance of 1/12.
        let variance = (self.sum_squares / n - mean * mean).max(1.0 / 12.0);
        let spread = |m: f64| variance + (mean - m).powi(2);
        n / 2.0 * (spread(self.config.m0) / spread(self.config.m1)).ln()
    }

    /// The decision, if taken.
    pub fn decision(&self) -> Option<Hypothesis> {
        self.decision
    }

    /// Where the test stands.
    pub fn status(&self) -> SprtStatus {
        SprtStatus {
            config: self.config,
            deals: self.n,
            mean: if self.n == 0 {
                0.0
            } else {
                self.sum / self.n as f64
            },
            llr: self.llr(),
            lower: self.config.lower(),
            upper: self.config.upper(),
            decision: self.decision,
        }
    }
}

/// The test of a match, fed its games' scores in any order: a deal counts once both its games
/// are in and every deal before it has counted (deal order, see the module doc).
#[derive(Clone, Debug)]
pub struct MatchSprt {
    test: Sprt,
    scores: BTreeMap<u32, [Option<f64>; 2]>,
    next_deal: u32,
}

impl MatchSprt {
    /// A test that has seen no game.
    pub fn new(config: SprtConfig) -> MatchSprt {
        MatchSprt {
            test: Sprt::new(config),
            scores: BTreeMap::new(),
            next_deal: 0,
        }
    }

    /// Counts game `game` of deal `deal` (0: A is Order, 1: B is Order) with Order's score
    /// (less its luck where the match measures it: the same mean, less noise), and returns the
    /// decision, if there is one now. Games may come in any order: a deal waits until every
    /// deal before it is complete, so the decision is the one the deals in deal order give.
    pub fn add(&mut self, deal: u32, game: u8, order_score: f64) -> Option<Hypothesis> {
        self.scores.entry(deal).or_default()[usize::from(game % 2)] = Some(order_score);
        while self.test.decision().is_none() {
            let Some(&[Some(a_order), Some(b_order)]) = self.scores.get(&self.next_deal) else {
                break;
            };
            self.test.add(a_order - b_order);
            self.next_deal += 1;
        }
        self.test.decision()
    }

    /// The decision, if taken.
    pub fn decision(&self) -> Option<Hypothesis> {
        self.test.decision()
    }

    /// Where the test stands.
    pub fn status(&self) -> SprtStatus {
        self.test.status()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn config() -> SprtConfig {
        SprtConfig::new(0.0, 5.0, 0.05, 0.05).unwrap()
    }

    /// A margin like a real deal's: Gaussian (Box-Muller) with a heavier tail mixed in, rounded
    /// to whole points. The standard deviation, about 17, is what 20 deals against the outside
    /// bot showed.
    fn margin(rng: &mut Xoshiro256PlusPlus, mean: f64) -> f64 {
        let u: f64 = rng.random::<f64>().max(1e-300);
        let v: f64 = rng.random();
        let z = (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos();
        let sd = if rng.random::<f64>() < 0.1 {
            35.0
        } else {
            15.0
        };
        (mean + sd * z).round()
    }

    /// Runs `matches` simulated tests with this true mean; returns how often each hypothesis
    /// was accepted and the mean number of deals a test took.
    fn simulate(true_mean: f64, matches: usize, seed: u64) -> (f64, f64, f64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut h0, mut h1, mut deals) = (0, 0, 0);
        for _ in 0..matches {
            let mut test = Sprt::new(config());
            // Far beyond the expected length: every simulated test decides.
            for _ in 0..100_000 {
                if test.add(margin(&mut rng, true_mean)).is_some() {
                    break;
                }
            }
            deals += test.status().deals;
            match test.decision() {
                Some(Hypothesis::H0) => h0 += 1,
                Some(Hypothesis::H1) => h1 += 1,
                None => panic!("a simulated test did not decide"),
            }
        }
        let m = matches as f64;
        (h0 as f64 / m, h1 as f64 / m, deals as f64 / m)
    }

    #[test]
    fn error_rates_on_simulated_matches_are_near_alpha_and_beta() {
        // 2000 matches per hypothesis: a rate of 0.05 is measured within about +-0.01.
        let (_, false_positive, deals_h0) = simulate(0.0, 2000, 1);
        let (false_negative, _, deals_h1) = simulate(5.0, 2000, 2);
        // Measured with these seeds: 0.0555 and 0.057, after 72.7 and 70.6 deals on average.
        assert!(
            false_positive < 0.07,
            "H1 accepted under H0: {false_positive}"
        );
        assert!(
            false_negative < 0.07,
            "H0 accepted under H1: {false_negative}"
        );
        // Wald's approximation of the expected length, with variance 0.9 * 15^2 + 0.1 * 35^2 =
        // 325: about 2.65 / (25 / 650) = 69 deals at either hypothesis.
        assert!((40.0..110.0).contains(&deals_h0), "{deals_h0}");
        assert!((40.0..110.0).contains(&deals_h1), "{deals_h1}");
    }

    #[test]
    fn clear_differences_decide_quickly_and_the_right_way() {
        let (h0, h1, deals) = simulate(15.0, 300, 3);
        assert_eq!((h0, h1), (0.0, 1.0));
        assert!(deals < 30.0, "{deals}");
        let (h0, _, _) = simulate(-10.0, 300, 4);
        assert_eq!(h0, 1.0);
    }

    #[test]
    fn the_ratio_matches_the_formula_and_waits_for_enough_deals() {
        let margins = [3.0, 7.0, -2.0, 10.0, 4.0];
        let mut test = Sprt::new(config());
        for m in margins {
            assert_eq!(test.add(m), None);
        }
        let n = 5.0;
        let mean = 22.0 / n;
        let s2 = margins.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
        let expected = n / 2.0 * ((s2 + mean * mean) / (s2 + (mean - 5.0).powi(2))).ln();
        assert!((test.llr() - expected).abs() < 1e-9);
        // Identical margins above H1: no decision before MIN_DEALS, then H1 at once. (With the
        // variance unknown, margins of 40 would say little more than these: the ratio compares
        // the distances to m0 and m1.)
        let mut test = Sprt::new(config());
        for _ in 1..MIN_DEALS {
            assert_eq!(test.add(10.0), None);
        }
        assert_eq!(test.add(10.0), Some(Hypothesis::H1));
        assert!(test.llr().is_finite());
        // The decision stands whatever comes after.
        assert_eq!(test.add(-100.0), Some(Hypothesis::H1));
        assert_eq!(test.status().deals, MIN_DEALS);
    }

    #[test]
    fn a_match_decides_at_the_same_deal_whatever_order_its_games_come_in() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut games: Vec<(u32, u8, f64)> = (0..60)
            .flat_map(|deal| {
                let b = 80 + rng.random_range(0..20);
                let a = b + rng.random_range(0..25);
                [(deal, 0, f64::from(a)), (deal, 1, f64::from(b))]
            })
            .collect();
        let status = |games: &[(u32, u8, f64)]| {
            let mut test = MatchSprt::new(config());
            for &(deal, game, score) in games {
                test.add(deal, game, score);
            }
            test.status()
        };
        let in_order = status(&games);
        assert_eq!(in_order.decision, Some(Hypothesis::H1));
        games.reverse();
        assert_eq!(status(&games), in_order);
    }

    #[test]
    fn bounds_and_bad_configurations() {
        let c = config();
        assert!((c.upper() - (0.95f64 / 0.05).ln()).abs() < 1e-12);
        assert!((c.lower() + (0.95f64 / 0.05).ln()).abs() < 1e-12);
        assert!(SprtConfig::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(SprtConfig::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(SprtConfig::new(0.0, 5.0, 0.05, 0.7).is_err());
        assert_eq!(SprtConfig::parse_margins("0, 5"), Ok((0.0, 5.0)));
        assert_eq!(SprtConfig::parse_margins("-2.5,1"), Ok((-2.5, 1.0)));
        assert!(SprtConfig::parse_margins("5").is_err());
        assert!(SprtConfig::parse_margins("a,5").is_err());
    }
}
