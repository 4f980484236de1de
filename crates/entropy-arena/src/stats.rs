//! Match statistics: means with t-based 95% confidence intervals, the paired difference per
//! deal, CodeCup points and forfeits.

use std::collections::BTreeMap;

use entropy_core::Role;

use crate::player::FaultKind;
use crate::record::GameRecord;

/// A sample mean with its 95% confidence interval (Student's t).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MeanCi {
    /// Sample size.
    pub n: usize,
    /// Sample mean.
    pub mean: f64,
    /// Sample standard deviation (n - 1 in the denominator); 0 for one value.
    pub sd: f64,
    /// Half the width of the 95% interval: mean +- half_width. Infinite for one value.
    pub half_width: f64,
}

impl MeanCi {
    /// The mean and interval of these values; `None` if there are none.
    pub fn of(values: &[f64]) -> Option<MeanCi> {
        let n = values.len();
        if n == 0 {
            return None;
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        if n == 1 {
            return Some(MeanCi {
                n,
                mean,
                sd: 0.0,
                half_width: f64::INFINITY,
            });
        }
        let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let sd = variance.sqrt();
        Some(MeanCi {
            n,
            mean,
            sd,
            half_width: t_975(n - 1) * sd / (n as f64).sqrt(),
        })
    }

    /// Whether the interval excludes zero.
    pub fn significant(&self) -> bool {
        self.mean.abs() > self.half_width
    }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom (for two-sided 95%
/// intervals): a table up to 30, then the Cornish-Fisher expansion around the normal quantile,
/// which is within 1e-4 there and closer beyond.
pub fn t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        _ => {
            let z: f64 = 1.959_963_985;
            let v = df as f64;
            z + (z.powi(3) + z) / (4.0 * v)
                + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
                + (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z)
                    / (384.0 * v.powi(3))
        }
    }
}

/// One player's results over a match.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSummary {
    /// The player's label.
    pub name: String,
    /// S in the games it played as Order.
    pub as_order: Option<MeanCi>,
    /// S it conceded in the games it played as Chaos.
    pub as_chaos: Option<MeanCi>,
    /// Total CodeCup points (120 + S as Order, 280 - S as Chaos, 0 when forfeiting).
    pub points: u64,
    /// Games played.
    pub games: usize,
    /// Mean seconds of clock used per game.
    pub mean_seconds: f64,
    /// Forfeits by reason.
    pub forfeits: BTreeMap<FaultKind, usize>,
}

/// The summary of a match between players A and B.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Player A and player B.
    pub players: [PlayerSummary; 2],
    /// Per complete deal, A's S as Order minus B's S as Order on the same chips: how many more
    /// points A makes than B, luck of the draw cancelled.
    pub paired: Option<MeanCi>,
    /// The same less each game's luck in the draws, where the match measures it
    /// ([`crate::luck`]): the same mean, a narrower interval.
    pub adjusted: Option<MeanCi>,
    /// Complete deals A won, drew and lost on that difference.
    pub deals_won_drawn_lost: [usize; 3],
    /// Games summarised.
    pub games: usize,
}

/// Summarises the records of one match.
pub fn summarize(records: &[GameRecord]) -> Summary {
    let player = |index: usize| {
        let mut order = Vec::new();
        let mut chaos = Vec::new();
        let mut summary = PlayerSummary {
            name: String::new(),
            as_order: None,
            as_chaos: None,
            points: 0,
            games: 0,
            mean_seconds: 0.0,
            forfeits: BTreeMap::new(),
        };
        let mut seconds = 0.0;
        for record in records {
            let (role, side) = record.side_of(index);
            summary.name = side.name.clone();
            summary.games += 1;
            summary.points += side.points as u64;
            seconds += side.seconds;
            match role {
                Role::Order => order.push(record.score as f64),
                Role::Chaos => chaos.push(record.score as f64),
            }
            for forfeit in record.forfeits.iter().filter(|f| f.role == role.name()) {
                *summary.forfeits.entry(forfeit.reason).or_default() += 1;
            }
        }
        summary.as_order = MeanCi::of(&order);
        summary.as_chaos = MeanCi::of(&chaos);
        summary.mean_seconds = seconds / summary.games.max(1) as f64;
        summary
    };
    let mut by_deal: BTreeMap<u32, [Option<&GameRecord>; 2]> = BTreeMap::new();
    for record in records {
        by_deal.entry(record.deal).or_default()[record.game as usize % 2] = Some(record);
    }
    let complete: Vec<[&GameRecord; 2]> = by_deal
        .values()
        .filter_map(|pair| Some([pair[0]?, pair[1]?]))
        .collect();
    let differences: Vec<f64> = complete
        .iter()
        .map(|[a, b]| f64::from(a.score) - f64::from(b.score))
        .collect();
    let measured = complete
        .iter()
        .all(|pair| pair.iter().all(|r| r.luck.is_some()));
    let adjusted = if measured {
        let skill: Vec<f64> = complete
            .iter()
            .map(|[a, b]| a.skill_score() - b.skill_score())
            .collect();
        MeanCi::of(&skill)
    } else {
        None
    };
    let mut deals_won_drawn_lost = [0; 3];
    for d in &differences {
        deals_won_drawn_lost[if *d > 0.0 {
            0
        } else if *d == 0.0 {
            1
        } else {
            2
        }] += 1;
    }
    Summary {
        players: [player(0), player(1)],
        paired: MeanCi::of(&differences),
        adjusted,
        deals_won_drawn_lost,
        games: records.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles() {
        assert_eq!(t_975(1), 12.706);
        assert!((t_975(31) - 2.0395).abs() < 1e-3, "{}", t_975(31));
        assert!((t_975(100) - 1.9840).abs() < 1e-3, "{}", t_975(100));
        assert!((t_975(1_000_000) - 1.95996).abs() < 1e-4);
        // The expansion meets the table smoothly at 30.
        assert!(t_975(31) < t_975(30));
    }

    #[test]
    fn mean_and_interval() {
        let ci = MeanCi::of(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!(ci.mean, 2.5);
        assert!((ci.sd - 1.290_994).abs() < 1e-6);
        assert!((ci.half_width - 3.182 * 1.290_994 / 2.0).abs() < 1e-6);
        assert!(ci.significant());
        assert!(MeanCi::of(&[]).is_none());
        assert!(!MeanCi::of(&[5.0]).unwrap().significant());
    }
}
