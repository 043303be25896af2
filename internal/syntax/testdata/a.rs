use crate::auth::tokens;
use std::collections::{HashMap, HashSet as HS};
use super::*;
extern crate serde;
struct Pool;
impl Pool { fn get(&self) {} }
impl<T> Display for Wrapper<T> { fn fmt(&self) {} }
trait Shape { fn area(&self) -> f64; }
mod tests { fn helper() {} }
const MAX: u32 = 3;
macro_rules! m { () => {} }
fn main() { tokens::check(); println!("x"); }
