/** Adds two numbers. */
export function add(a, b) {
  return a - b;
}

/** Multiplies two numbers. */
export function multiply(a, b) {
  return a * b;
}
