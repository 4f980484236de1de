//! Match statistics: means with t-based 95% confidence intervals, the paired difference per
//! deal, CodeCup points and forfeits.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use entropy_core::Role;

use crate::player::FaultKind;
use crate::record::{GameRecord, MatchKey};
use crate::sprt::SprtStatus;

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
    /// Median seconds of clock used per game (a few long games pull the mean up).
    pub median_seconds: f64,
    /// Forfeits by reason.
    pub forfeits: BTreeMap<FaultKind, usize>,
}

impl PlayerSummary {
    /// The forfeits in words (`timeout 2, crash 1`), `none` where there were none.
    pub fn forfeits_text(&self, none: &str) -> String {
        if self.forfeits.is_empty() {
            return none.to_owned();
        }
        self.forfeits
            .iter()
            .map(|(kind, n)| format!("{kind} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
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
            median_seconds: 0.0,
            forfeits: BTreeMap::new(),
        };
        let mut seconds = Vec::with_capacity(records.len());
        for record in records {
            let (role, side) = record.side_of(index);
            summary.name = side.name.clone();
            summary.games += 1;
            summary.points += side.points as u64;
            seconds.push(side.seconds);
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
        summary.mean_seconds = seconds.iter().sum::<f64>() / summary.games.max(1) as f64;
        summary.median_seconds = median(&mut seconds);
        summary
    };
    let margins = deal_margins(records);
    let differences: Vec<f64> = margins.values().map(|m| m.margin).collect();
    // Taken out only where every complete deal measured it.
    let adjusted = margins
        .values()
        .map(|m| m.skill)
        .collect::<Option<Vec<f64>>>()
        .and_then(|skill| MeanCi::of(&skill));
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

/// The median of these values (the mean of the middle two for an even count); 0 for none.
pub fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len() % 2 == 1 {
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    }
}

/// One complete deal of a match: its chips' seed and A's margin over B on them.
#[derive(Copy, Clone, Debug, PartialEq)]
struct DealMargin {
    deal_seed: u64,
    /// A's S as Order less B's S as Order.
    margin: f64,
    /// The same less each game's luck in the draws, where both games measured it.
    skill: Option<f64>,
}

/// The complete deals of a match's records, by deal number.
fn deal_margins(records: &[GameRecord]) -> BTreeMap<u32, DealMargin> {
    let mut by_deal: BTreeMap<u32, [Option<&GameRecord>; 2]> = BTreeMap::new();
    for record in records {
        by_deal.entry(record.deal).or_default()[record.game as usize % 2] = Some(record);
    }
    by_deal
        .into_iter()
        .filter_map(|(deal, [a, b])| {
            let (a, b) = (a?, b?);
            Some((
                deal,
                DealMargin {
                    deal_seed: a.deal_seed,
                    margin: f64::from(a.score) - f64::from(b.score),
                    skill: (a.luck.is_some() && b.luck.is_some())
                        .then(|| a.skill_score() - b.skill_score()),
                },
            ))
        })
        .collect()
}

/// Two matches compared on the deals both played with the same chips: how much larger the
/// first's paired margin is than the second's, deal by deal. The way to say "this player
/// beats that opponent by more than the last default did": the same chips cancel the luck of
/// the deals a plain difference of the two matches' means would keep.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Complete deals in both, with the same chips.
    pub shared: usize,
    /// Complete deals in both with the same number but other chips (matches of other seeds or
    /// board sizes): left out.
    pub dealt_otherwise: usize,
    /// The first match's paired margin over the shared deals.
    pub first: MeanCi,
    /// The second match's paired margin over the same deals.
    pub second: MeanCi,
    /// Per shared deal, the first's margin less the second's.
    pub difference: MeanCi,
    /// The same less the draws' luck, where every game of the shared deals measured it.
    pub difference_adjusted: Option<MeanCi>,
}

/// Compares two matches' paired margins on the deals both played with the same chips; an
/// error when there is no such deal.
pub fn compare(first: &[GameRecord], second: &[GameRecord]) -> Result<Comparison, String> {
    let (a, b) = (deal_margins(first), deal_margins(second));
    let mut pairs = Vec::new();
    let mut dealt_otherwise = 0;
    for (deal, x) in &a {
        match b.get(deal) {
            Some(y) if y.deal_seed == x.deal_seed => pairs.push((*x, *y)),
            Some(_) => dealt_otherwise += 1,
            None => {}
        }
    }
    if pairs.is_empty() {
        return Err(if dealt_otherwise > 0 {
            format!(
                "no deal in common: the {dealt_otherwise} deals both completed were dealt other \
                 chips (another --seed or --size)"
            )
        } else {
            format!(
                "no deal in common: the first has {} complete deals, the second {}, none of the \
                 same number",
                a.len(),
                b.len()
            )
        });
    }
    let of = |values: Vec<f64>| MeanCi::of(&values).expect("at least one deal");
    let adjusted: Option<Vec<f64>> = pairs
        .iter()
        .map(|(x, y)| Some(x.skill? - y.skill?))
        .collect();
    Ok(Comparison {
        shared: pairs.len(),
        dealt_otherwise,
        first: of(pairs.iter().map(|(x, _)| x.margin).collect()),
        second: of(pairs.iter().map(|(_, y)| y.margin).collect()),
        difference: of(pairs.iter().map(|(x, y)| x.margin - y.margin).collect()),
        difference_adjusted: adjusted.map(of),
    })
}

/// A mean with its interval, unsigned (`82.8 ± 0.7`), the mean alone for one value, `-` for
/// none: as match summaries print scores.
pub fn format_ci(ci: &Option<MeanCi>) -> String {
    match ci {
        None => "-".to_owned(),
        Some(ci) if ci.n < 2 => format!("{:.1}", ci.mean),
        Some(ci) => format!("{:.1} ± {:.1}", ci.mean, ci.half_width),
    }
}

/// A match's summary as text: what `entropy match` prints when a match ends and `entropy
/// records` prints from a record.
pub fn summary_text(
    key: &MatchKey,
    deals: u32,
    summary: &Summary,
    sprt: Option<&SprtStatus>,
    record: &str,
) -> String {
    let mut out = format!(
        "{} (A) vs {} (B): {} deals x 2 games, seed {}, {} clock, {}x{} board\n",
        key.players[0].short_label(),
        key.players[1].short_label(),
        deals,
        key.seed,
        key.clock_text(),
        key.size,
        key.size
    );
    let _ = writeln!(
        out,
        "{:<3}{:>16}{:>22}{:>9}{:>9}{:>9}  {:<24}player",
        "", "S as Order", "S conceded as Chaos", "points", "s/game", "median", "forfeits"
    );
    for (label, player) in ["A", "B"].iter().zip(&summary.players) {
        let forfeits = player.forfeits_text("none");
        let _ = writeln!(
            out,
            "{label:<3}{:>16}{:>22}{:>9}{:>9.3}{:>9.3}  {forfeits:<24}{}",
            format_ci(&player.as_order),
            format_ci(&player.as_chaos),
            player.points,
            player.mean_seconds,
            player.median_seconds,
            player.name
        );
    }
    match &summary.paired {
        Some(ci) => {
            let [won, drawn, lost] = summary.deals_won_drawn_lost;
            let verdict = if ci.n < 2 {
                "too few deals for an interval"
            } else if ci.significant() {
                if ci.mean > 0.0 {
                    "A is stronger"
                } else {
                    "B is stronger"
                }
            } else {
                "no significant difference"
            };
            let _ = writeln!(
                out,
                "paired margin (A's S as Order - B's S as Order, same chips): {:+.1} ± {:.1} (95% CI, {} deals; A won {won}, drew {drawn}, lost {lost}): {verdict}",
                ci.mean, ci.half_width, ci.n
            );
        }
        None => out.push_str("paired margin: no complete deal yet\n"),
    }
    if let (Some(ci), Some(depth)) = (&summary.adjusted, key.luck) {
        let _ = writeln!(
            out,
            "less the draws' luck (valued by a depth-{depth} search; the same mean, less noise): {:+.1} ± {:.1} (95% CI, sd {:.1} where the margins as played have {:.1})",
            ci.mean,
            ci.half_width,
            ci.sd,
            summary.paired.as_ref().map_or(f64::NAN, |p| p.sd)
        );
    }
    if let Some(status) = sprt {
        let on = if key.luck.is_some() {
            "margins less the draws' luck"
        } else {
            "margins as played"
        };
        // The line as the Ray runner prints it, then which margins it counted.
        let _ = writeln!(out, "{}", status.line());
        let _ = writeln!(out, "  (the SPRT counts the {on})");
    }
    let _ = writeln!(out, "records: {record} ({} games)", summary.games);
    out
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

    use crate::player::PlayerSpec;
    use crate::record::{MatchKey, Side};

    /// A game of deal `deal` (game 0: A is Order) on chips `deal_seed`, Order scoring `score`.
    fn game(deal: u32, game: u8, deal_seed: u64, score: u32, luck: Option<f64>) -> GameRecord {
        let side = |player: char, seconds: f64| Side {
            player,
            name: player.to_string(),
            seconds,
            points: 0,
        };
        let (order, chaos) = if game == 0 { ('A', 'B') } else { ('B', 'A') };
        GameRecord {
            key: MatchKey {
                players: [
                    PlayerSpec::Builtin("greedy".into()),
                    PlayerSpec::Builtin("random".into()),
                ],
                seed: 1,
                clock_ms: 1000,
                clock_b_ms: None,
                size: 7,
                luck: luck.map(|_| 2),
            },
            deal,
            game,
            deal_seed,
            order: side(order, f64::from(score) / 10.0),
            chaos: side(chaos, 1.0),
            moves: Vec::new(),
            board: String::new(),
            score,
            luck,
            termination: crate::record::Termination::Normal,
            forfeits: Vec::new(),
            sprt: None,
        }
    }

    #[test]
    fn medians() {
        assert_eq!(median(&mut []), 0.0);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 100.0, 2.0]), 3.0);
    }

    #[test]
    fn summary_pairs_games_by_deal() {
        // Deal 1 is missing B's game as Order: only deals 0 and 2 are complete.
        let records = [
            game(0, 0, 10, 80, Some(1.0)),
            game(2, 1, 12, 70, Some(0.0)),
            game(0, 1, 10, 75, Some(-1.0)),
            game(1, 0, 11, 90, Some(0.0)),
            game(2, 0, 12, 74, Some(2.0)),
        ];
        let summary = summarize(&records);
        let paired = summary.paired.unwrap();
        assert_eq!((paired.n, paired.mean), (2, 4.5));
        // (80 - 1) - (75 + 1) = 3, (74 - 2) - 70 = 2.
        assert_eq!(summary.adjusted.unwrap().mean, 2.5);
        assert_eq!(summary.deals_won_drawn_lost, [2, 0, 0]);
        // A's seconds in file order: 8.0, 1.0 and 1.0 (as Chaos), 9.0, 7.4.
        assert_eq!(summary.players[0].median_seconds, 7.4);
        // Without the luck of one game no adjusted margin is claimed.
        let mut unmeasured = records.to_vec();
        unmeasured[0].luck = None;
        assert!(summarize(&unmeasured).adjusted.is_none());
    }

    #[test]
    fn comparisons_use_the_shared_deals_with_the_same_chips() {
        let first = [
            game(0, 0, 10, 80, Some(0.0)),
            game(0, 1, 10, 70, Some(0.0)),
            game(1, 0, 11, 85, Some(1.0)),
            game(1, 1, 11, 80, Some(0.0)),
            game(2, 0, 12, 90, Some(0.0)),
            game(2, 1, 12, 60, Some(0.0)),
        ];
        // Deal 1 is dealt other chips in the second match, deal 2 is not complete there.
        let second = [
            game(0, 0, 10, 72, Some(0.0)),
            game(0, 1, 10, 70, Some(-1.0)),
            game(1, 0, 99, 70, Some(0.0)),
            game(1, 1, 99, 80, Some(0.0)),
            game(2, 0, 12, 80, Some(0.0)),
        ];
        let c = compare(&first, &second).unwrap();
        assert_eq!((c.shared, c.dealt_otherwise), (1, 1));
        assert_eq!(
            (c.first.mean, c.second.mean, c.difference.mean),
            (10.0, 2.0, 8.0)
        );
        // Less the luck: 10 - (72 - (70 + 1)) = 9.
        assert_eq!(c.difference_adjusted.unwrap().mean, 9.0);
        let shifted: Vec<GameRecord> = second
            .iter()
            .map(|r| GameRecord {
                deal_seed: r.deal_seed + 1,
                ..r.clone()
            })
            .collect();
        let error = compare(&first, &shifted).unwrap_err();
        assert!(error.contains("other chips"), "{error}");
        assert!(compare(&first, &[])
            .unwrap_err()
            .contains("no deal in common"));
    }
}
