//! Training what the engine plays with:
//!
//! - [`linear`]: the linear evaluation's weights, by self-play and ridge regression per bucket
//!   (`entropy train`); its items are re-exported here.
//! - [`fit`]: ridge regression by the normal equations, and R^2.
//! - [`distill`]: the n-tuple model from a searcher's values (`entropy train-net`, the default).
//! - [`td`]: the n-tuple model by temporal differences in self-play (`--method td`).
//! - [`tables`]: the n-tuple tables at the search's leaves, fitted to [`linear`]'s targets
//!   (`entropy train-tables`).
//! - [`policy`]: the policy network's teacher data (`entropy policy-data`).
//! - [`teacher`]: one policy network's teacher data, for both roles (`entropy teacher-data`).
//! - [`saved`]: self-play data kept in a file as it is made, so a long generation resumes.

#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod distill;
pub mod fit;
pub mod linear;
pub mod policy;
pub mod saved;
pub mod tables;
pub mod td;
pub mod teacher;

pub use linear::*;
