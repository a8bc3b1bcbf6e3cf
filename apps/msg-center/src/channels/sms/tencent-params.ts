import { ChannelError } from '../channel-sender';

// Tencent SMS templates number their parameters {1}, {2}, … and SendSms takes the values by position
// (TemplateParamSet). A Tencent template's parameter keys are those numbers, so each value's position is
// explicit instead of depending on the order keys are stored in (jsonb sorts them).

/** Why `keys` cannot be the parameters of a Tencent template (they must be exactly 1..n), if they cannot. */
export function tencentParameterKeysProblem(keys: string[]): string | undefined {
  if (keys.every((_, i) => keys.includes(String(i + 1)))) return undefined;
  return `Tencent SMS parameters are positional ({1}, {2}, …): name the keys 1 to ${keys.length} (got ${keys.join(', ')})`;
}

/** The values of a Tencent template's parameters in the order of their numbers (1, 2, … n). */
export function tencentTemplateParamSet(params: Record<string, string>): string[] {
  const problem = tencentParameterKeysProblem(Object.keys(params));
  if (problem !== undefined) throw new ChannelError(problem);
  return Object.keys(params).map((_, i) => params[String(i + 1)]);
}
