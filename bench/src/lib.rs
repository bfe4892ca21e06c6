//! What the comparison examples share: the interleaved timing loop
//! ([`timing`]) and the message buffer that moves through the four 16-byte
//! placements in a cache line ([`moving_buffer`]). `tools/ab-probe`
//! includes the latter with `#[path]` (it links two builds of the crate and
//! is a workspace of its own).

pub mod moving_buffer;
pub mod timing;
