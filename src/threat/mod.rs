//! Threat-space search: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats: fours, open threes and fukumi moves), the tactics the main search leans on, and the `solve`
//! command built on them.

pub mod dfpn;
pub mod limits;
pub mod moves;
pub mod probe;
pub mod solve_cmd;
pub mod validate;
pub mod vcf;
pub mod vct;

pub use limits::{Limits, SolveOutcome};
pub use vcf::VcfSolver;
pub use vct::VctSolver;
