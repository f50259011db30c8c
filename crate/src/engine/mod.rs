//! The decision engine: host state ([`host`]), filters ([`filter`]), weighers ([`weigher`]), the
//! filter scheduler ([`rank`]), the memorizing scheduler ([`memorizing`]), the random draw
//! ([`draw`]), time-shifting ([`timeshift`]) and the explanation record ([`explain`]).

pub mod current;
pub mod draw;
pub mod explain;
pub mod filter;
pub mod host;
pub mod java;
pub mod memorizing;
pub mod other;
pub mod rank;
pub mod scheduler;
pub mod semantics;
pub mod timeshift;
pub mod weigher;

pub use host::{Demand, HostState};
pub use semantics::Semantics;

/// The run's random generator (SPEC 8).
pub type Rng = rand_pcg::Pcg64;

/// The generator of a run with this seed.
pub fn rng(seed: u64) -> Rng {
    use rand::SeedableRng;
    rand_pcg::Pcg64::seed_from_u64(seed)
}
