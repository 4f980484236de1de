//! The match SPRT of `entropy match --sprt` for Python drivers (the cluster's): the same test,
//! fed the same records, decides at the same deal.

use entropy_arena::record::GameRecord;
use entropy_arena::sprt::{Hypothesis, MatchSprt, SprtConfig};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A sequential probability ratio test on a match's paired margins: H0 the mean margin is at
/// most `m0`, H1 at least `m1`. Games are added as their records come, in any order; deals
/// count in deal order, as in `entropy match --sprt`.
#[pyclass(name = "MatchSprt", module = "hyle_entropy._native")]
pub struct PyMatchSprt {
    test: MatchSprt,
}

fn hypothesis_name(hypothesis: Option<Hypothesis>) -> Option<&'static str> {
    hypothesis.map(|h| match h {
        Hypothesis::H0 => "H0",
        Hypothesis::H1 => "H1",
    })
}

#[pymethods]
impl PyMatchSprt {
    #[new]
    #[pyo3(signature = (m0, m1, alpha = 0.05, beta = 0.05))]
    fn new(m0: f64, m1: f64, alpha: f64, beta: f64) -> PyResult<Self> {
        let config = SprtConfig::new(m0, m1, alpha, beta).map_err(PyValueError::new_err)?;
        Ok(PyMatchSprt {
            test: MatchSprt::new(config),
        })
    }

    /// Counts a game (its JSON record) and returns the decision so far: "H0", "H1" or None.
    fn add(&mut self, record: &str) -> PyResult<Option<&'static str>> {
        let record: GameRecord = serde_json::from_str(record)
            .map_err(|e| PyValueError::new_err(format!("not a game record: {e}")))?;
        let decision = self
            .test
            .add(record.deal, record.game, record.skill_score());
        Ok(hypothesis_name(decision))
    }

    /// The decision: "H0", "H1" or None.
    fn decision(&self) -> Option<&'static str> {
        hypothesis_name(self.test.decision())
    }

    /// Where the test stands, as the JSON `entropy match` writes in each record's `sprt`.
    fn status(&self) -> PyResult<String> {
        serde_json::to_string(&self.test.status()).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The test's result in the line `entropy match` prints.
    fn line(&self) -> String {
        self.test.status().line()
    }
}
