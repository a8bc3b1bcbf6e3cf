import {
  htmlToText,
  MissingTemplateVariablesError,
  renderTemplate,
  sanitizeTemplateContent,
  templateVariables,
} from './template-content';

describe('template content', () => {
  it.each([
    ['<p>Hi ${name}</p><script>alert(1)</script>', '<p>Hi ${name}</p>'],
    ['<img src="x" onerror="alert(1)">', '<img src="x" />'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<p style="color:#f00;position:fixed">red</p>', '<p style="color:#f00">red</p>'],
    ['<img src="data:image/png;base64,AAAA" />', '<img src="data:image/png;base64,AAAA" />'],
  ])('sanitises %s', (input, output) => {
    expect(sanitizeTemplateContent(input)).toBe(output);
  });

  it('lists and substitutes ${XXX} variables', () => {
    expect(templateVariables('${a} and ${ b } and ${a}')).toEqual(['a', 'b']);
    expect(
      renderTemplate('<p>${pile} stopped: ${reason}</p>', { pile: 'CP<1>', reason: 'x' }, { html: true }),
    ).toBe('<p>CP&lt;1&gt; stopped: x</p>');
  });

  it('names every missing variable', () => {
    expect(() => renderTemplate('${a} ${b} ${c}', { b: 1 })).toThrow(
      new MissingTemplateVariablesError(['a', 'c']),
    );
    expect(() => renderTemplate('${a}', {})).toThrow('Template variable(s) missing: ${a}');
  });

  it('converts rich text to plain text', () => {
    expect(htmlToText('<p>a &amp; b</p><p>c<br>d</p>')).toBe('a & b\nc\nd');
  });
});
