/** Competition ranking ("1224"): rows with equal values share the better rank. */
export function competitionRanks(sortedValues: readonly number[]): number[] {
  const ranks: number[] = [];
  for (let i = 0; i < sortedValues.length; i += 1) {
    ranks.push(i > 0 && sortedValues[i] === sortedValues[i - 1] ? ranks[i - 1] : i + 1);
  }
  return ranks;
}
