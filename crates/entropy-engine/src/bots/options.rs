//! The searching bots' options in one table that lists, documents and parses every one: what
//! `search:KEY=VALUE,...` accepts and what `entropy bots --options` prints. The product's options
//! are written here; the numbers SPSA tunes come from [`TUNABLES`], and every default is read
//! from [`SearchOptions::default`], where it is written once.

use std::time::Duration;

use super::search::{Tunable, TUNABLES};
use super::SearchOptions;
use crate::eval::{LinearEval, Weights};
use crate::learned::{self, NTupleEval};
use crate::search::Limits;

/// What a searching bot is made of, as its options set it.
pub(crate) struct SearchSetup {
    /// Limits, table, opponent model and tuning.
    pub options: SearchOptions,
    /// The linear evaluation (the leaves', unless `leaves` is set; the opponent judge's always).
    pub eval: LinearEval,
    /// The line-pattern tables (an n-tuple evaluation) at the leaves, if any: the shipped ones
    /// for `search`, none (linear leaves) for `search-hand`.
    pub leaves: Option<NTupleEval>,
}

/// One option of the searching bots.
#[derive(Copy, Clone)]
pub struct SearchOption {
    /// The key before `=`.
    pub key: &'static str,
    /// What the value is (`N`, `MS`, `FILE`, `0|1`).
    pub value: &'static str,
    /// What it is for: `limits`, `evaluation`, `opponent` (the tunables among them).
    pub group: &'static str,
    /// What it does.
    pub help: &'static str,
    kind: Kind,
}

/// How an option reads its default and sets its value.
#[derive(Copy, Clone)]
enum Kind {
    /// A product option: its default read from [`SearchOptions::default`] (where it has one to
    /// show), and its setter.
    Product {
        default: fn(&SearchOptions) -> Option<String>,
        set: fn(&mut SearchSetup, &str) -> Result<(), String>,
    },
    /// A number SPSA tunes, a whole number set on the bot's [`super::Tuning`].
    Tunable(&'static Tunable),
}

impl SearchOption {
    /// The option's default as `entropy bots --options` shows it, read from where it is
    /// written ([`SearchOptions::default`], [`super::Tuning::default`]).
    pub fn default_text(&self) -> Option<String> {
        match self.kind {
            Kind::Product { default, .. } => default(&SearchOptions::default()),
            Kind::Tunable(tunable) => Some(tunable.default_value().to_string()),
        }
    }

    fn set(&self, setup: &mut SearchSetup, value: &str) -> Result<(), String> {
        match self.kind {
            Kind::Product { set, .. } => set(setup, value),
            Kind::Tunable(tunable) => {
                (tunable.set)(&mut setup.options.tuning, whole(value)? as f64);
                Ok(())
            }
        }
    }
}

/// A product option's kind.
const fn product(
    default: fn(&SearchOptions) -> Option<String>,
    set: fn(&mut SearchSetup, &str) -> Result<(), String>,
) -> Kind {
    Kind::Product { default, set }
}

/// The searching bots' (`search`, `search-hand`) options but the tunables, by group.
const PRODUCT_OPTIONS: &[SearchOption] = &[
    SearchOption {
        key: "nodes",
        value: "N",
        group: "limits",
        help: "search N positions per move (reproducible) instead of playing to the clock",
        kind: product(
            |_| None,
            |s, v| {
                s.limits().nodes = Some(whole(v)?);
                Ok(())
            },
        ),
    },
    SearchOption {
        key: "depth",
        value: "N",
        group: "limits",
        help: "search N moves deep (draws count) instead of playing to the clock",
        kind: product(
            |_| None,
            |s, v| {
                s.limits().depth = Some(whole(v)?.min(1000) as u32);
                Ok(())
            },
        ),
    },
    SearchOption {
        key: "time",
        value: "MS",
        group: "limits",
        help: "search MS milliseconds per move instead of sharing the game's clock",
        kind: product(
            |_| None,
            |s, v| {
                s.limits().time = Some(Duration::from_millis(whole(v)?));
                Ok(())
            },
        ),
    },
    SearchOption {
        key: "tt",
        value: "MIB",
        group: "limits",
        help: "the transposition table's size in MiB",
        kind: product(
            |o| Some(o.table_mib.to_string()),
            |s, v| {
                s.options.table_mib = whole(v)?.clamp(1, 4096) as usize;
                Ok(())
            },
        ),
    },
    SearchOption {
        key: "eval",
        value: "tables|linear|net",
        group: "evaluation",
        help: "the leaves' evaluation: the line-pattern tables over the linear one (`search`'s \
               default), the linear one alone (`search-hand`'s), or `entropy train-net`'s model",
        kind: product(
            |_| None,
            |s, v| {
                s.leaves = match v {
                    "tables" => Some(NTupleEval::tables()),
                    "linear" => None,
                    "net" => Some(NTupleEval::trained()),
                    _ => return Err(format!("eval={v}: use tables, linear or net")),
                };
                Ok(())
            },
        ),
    },
    SearchOption {
        key: "weights",
        value: "FILE",
        group: "evaluation",
        help: "linear evaluation weights written by `entropy train`, alone at the leaves",
        kind: product(
            |_| None,
            |s, v| {
                s.eval = LinearEval::new(Weights::read(v)?);
                s.leaves = None;
                Ok(())
            },
        ),
    },
    SearchOption {
        key: "net",
        value: "FILE",
        group: "evaluation",
        help: "line-pattern tables (an n-tuple model) written by `entropy train-tables` or \
               `entropy train-net`, at the leaves over the linear evaluation",
        kind: product(
            |_| None,
            |s, v| {
                s.leaves = Some(NTupleEval::new(learned::load_model(v)?));
                Ok(())
            },
        ),
    },
    SearchOption {
        key: "watch",
        value: "0|1",
        group: "opponent",
        help: "watch the opponent and exploit a greedy or weak one; 0 for a bot asked about \
               positions it did not reach, such as a training opponent",
        kind: product(
            |o| Some(u8::from(o.watch).to_string()),
            |s, v| {
                s.options.watch = flag(v)?;
                Ok(())
            },
        ),
    },
];

/// Every option of the searching bots (`search`, `search-hand`): the product's, then the
/// numbers SPSA tunes.
pub fn search_options() -> Vec<SearchOption> {
    let tunables = TUNABLES.iter().map(|tunable| SearchOption {
        key: tunable.name,
        value: "N",
        group: "opponent",
        help: tunable.help,
        kind: Kind::Tunable(tunable),
    });
    PRODUCT_OPTIONS.iter().copied().chain(tunables).collect()
}

impl SearchSetup {
    /// The fixed limits, made on the first limit given (without any, the bot plays to the
    /// clock).
    fn limits(&mut self) -> &mut Limits {
        self.options.limits.get_or_insert_with(Limits::default)
    }
}

/// Applies `search:` options (comma-separated `KEY=VALUE`) to a setup; the error says what was
/// wrong with which option, and what the keys are.
pub(crate) fn apply(options: &str, mut setup: SearchSetup) -> Result<SearchSetup, String> {
    let table = search_options();
    for option in options.split(',').filter(|o| !o.is_empty()) {
        let known = option
            .split_once('=')
            .and_then(|(key, value)| Some((table.iter().find(|o| o.key == key)?, value)));
        let Some((entry, value)) = known else {
            return Err(bad_option(option));
        };
        entry
            .set(&mut setup, value)
            .map_err(|e| format!("{option}: {e}"))?;
    }
    Ok(setup)
}

fn bad_option(option: &str) -> String {
    let keys: Vec<String> = search_options()
        .iter()
        .map(|o| format!("{}={}", o.key, o.value))
        .collect();
    format!("bad option {option:?}: use {}", keys.join(", "))
}

fn whole(value: &str) -> Result<u64, String> {
    value
        .parse()
        .map_err(|_| format!("{value:?} is not a whole number"))
}

fn flag(value: &str) -> Result<bool, String> {
    match value {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(format!("{value:?}: use 0 or 1")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::Tuning;

    fn setup() -> SearchSetup {
        SearchSetup {
            options: SearchOptions::default(),
            eval: LinearEval::trained(),
            leaves: None,
        }
    }

    #[test]
    fn every_key_is_listed_once_and_the_table_stays_small() {
        let keys: Vec<&str> = search_options().iter().map(|o| o.key).collect();
        for (i, key) in keys.iter().enumerate() {
            assert!(!keys[..i].contains(key), "{key} twice");
        }
        assert!(keys.len() <= 12, "{keys:?}");
        for tunable in TUNABLES {
            assert!(
                keys.contains(&tunable.name),
                "{} is no option",
                tunable.name
            );
        }
    }

    #[test]
    fn options_set_what_they_say() {
        let s = apply("nodes=500,tt=8,weak=0,greedy=7,watch=0", setup()).unwrap();
        let limits = s.options.limits.unwrap();
        assert_eq!(limits.nodes, Some(500));
        assert_eq!(s.options.table_mib, 8);
        assert_eq!(s.options.tuning, Tuning { weak: 0, greedy: 7 });
        assert_eq!(s.options.tuning.weak_regret(), None);
        assert_eq!(s.options.tuning.greedy_regret(), Some(0.7));
        assert!(!s.options.watch);
        // The table size alone leaves the bot on the clock.
        assert_eq!(apply("tt=8", setup()).unwrap().options.limits, None);
        assert_eq!(
            apply("", setup()).unwrap().options,
            SearchOptions::default()
        );
    }

    #[test]
    fn defaults_are_read_from_where_they_are_written() {
        let shown: Vec<(&str, Option<String>)> = search_options()
            .iter()
            .map(|o| (o.key, o.default_text()))
            .collect();
        let default = SearchOptions::default();
        assert!(shown.contains(&("tt", Some(default.table_mib.to_string()))));
        assert!(shown.contains(&("weak", Some(default.tuning.weak.to_string()))));
        assert!(shown.contains(&("greedy", Some(default.tuning.greedy.to_string()))));
        // Each tunable reads and writes its own field.
        for tunable in TUNABLES {
            let mut tuning = Tuning::default();
            (tunable.set)(&mut tuning, tunable.max);
            assert_eq!((tunable.get)(&tuning), tunable.max, "{}", tunable.name);
            assert!(
                tunable.min <= tunable.default_value() && tunable.default_value() <= tunable.max
            );
        }
    }

    #[test]
    fn the_leaves_are_the_tables_unless_linear_is_asked_for() {
        // `search`'s setup: the tables at the leaves.
        let tables = || SearchSetup {
            leaves: Some(NTupleEval::tables()),
            ..setup()
        };
        assert!(apply("nodes=10", tables()).unwrap().leaves.is_some());
        assert!(apply("eval=linear", tables()).unwrap().leaves.is_none());
        assert!(apply("eval=tables", setup()).unwrap().leaves.is_some());
    }

    #[test]
    fn bad_options_are_named() {
        for (options, expected) in [
            ("nodes=x", "nodes=x: \"x\" is not a whole number"),
            ("speed=3", "bad option \"speed=3\": use nodes=N"),
            ("nodes", "bad option \"nodes\""),
            ("watch=2", "watch=2: \"2\": use 0 or 1"),
            ("weak=x", "weak=x: \"x\" is not a whole number"),
            ("eval=deep", "eval=deep: use tables, linear or net"),
            ("peak=2", "bad option \"peak=2\""),
            (
                "weights=/no/such/file",
                "cannot read the weights file /no/such/file",
            ),
        ] {
            let error = apply(options, setup()).err().expect(options);
            assert!(error.contains(expected), "{options}: {error}");
        }
    }
}
