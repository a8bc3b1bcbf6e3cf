import { ChannelError } from '../channel-sender';
import { tencentParameterKeysProblem, tencentTemplateParamSet } from './tencent-params';

describe('Tencent SMS template parameters (positional {1}, {2}, …)', () => {
  it('sends the values in the order of their key numbers, whatever order the keys come in', () => {
    expect(tencentTemplateParamSet({ '2': 'b', '1': 'a' })).toEqual(['a', 'b']);
    const eleven = Object.fromEntries(['10', '11', ...'123456789'].map((k) => [k, `v${k}`]));
    expect(tencentTemplateParamSet(eleven)).toEqual(Array.from({ length: 11 }, (_, i) => `v${i + 1}`));
    expect(tencentTemplateParamSet({})).toEqual([]);
  });

  it.each([
    [['code', 'minutes'], 'name the keys 1 to 2 (got code, minutes)'],
    [['1', '3'], 'name the keys 1 to 2 (got 1, 3)'],
    [['0', '1'], 'name the keys 1 to 2 (got 0, 1)'],
    [['01'], 'name the keys 1 to 1 (got 01)'],
  ])('refuses keys %j: %s', (keys, message) => {
    expect(tencentParameterKeysProblem(keys)).toContain(message);
    const params = Object.fromEntries(keys.map((k) => [k, 'x']));
    expect(() => tencentTemplateParamSet(params)).toThrow(ChannelError);
  });
});
