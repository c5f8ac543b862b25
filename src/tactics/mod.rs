//! Threat-space search: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats: fours, open threes and fukumi moves), the tactics the main search leans on.
//!
//! * [`vcf`]: the VCF solver (depth-first, with a refutation table).
//! * [`vct`]: the VCT problem — which attacker moves threaten, which defences are worth
//!   searching — solved by [`dfpn`], a proof-number search that knows nothing of gomoku.
//! * [`moves`]: threat move generation from the board's classes; [`validate`]: replaying a
//!   claimed win against the rules; [`limits`]: node, time and stop limits of a search.

pub mod dfpn;
pub mod limits;
pub mod moves;
pub mod validate;
pub mod vcf;
pub mod vct;

pub use limits::{Limits, SolveOutcome};
pub use vcf::VcfSolver;
pub use vct::VctSolver;
