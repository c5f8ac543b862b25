//! Zobrist keys: one fixed pseudo-random 64-bit number per (colour, cell), and one for the
//! side to move, generated at compile time so every build hashes identically.

use super::pos::NUM_CELLS;

/// One step of SplitMix64: the next state and its output (a bijection of the state, well
/// spread). Also the transposition table's salt sequence.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

const fn generate() -> [[u64; NUM_CELLS]; 2] {
    let mut keys = [[0u64; NUM_CELLS]; 2];
    let mut state = 0x7469_616E_7975_616E; // "tianyuan"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < NUM_CELLS {
            let (s, v) = splitmix64(state);
            state = s;
            keys[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    keys
}

/// Key of a stone of colour index `c` on cell index `i`: `STONE_KEYS[c][i]`.
pub static STONE_KEYS: [[u64; NUM_CELLS]; 2] = generate();

/// Key toggled when white is to move.
pub const SIDE_KEY: u64 = splitmix64(0x5349_4445).1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = STONE_KEYS.iter().flatten().copied().collect();
        all.push(SIDE_KEY);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
