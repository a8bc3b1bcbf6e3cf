import {
  BoldOutlined,
  ItalicOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import Image from '@tiptap/extension-image';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { App, Button, Divider, Space, Tag, Tooltip, Typography, theme } from 'antd';
import { useEffect, useRef, type ChangeEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { checkImage, IMAGE_TYPES, KNOWN_VARIABLES, templateVariables } from './richText';

export type RichTextEditorProps = {
  id?: string;
  value?: string | null;
  onChange?: (html: string) => void;
  disabled?: boolean;
  /** Spec §9: 40vh. */
  height?: string;
};

const htmlOf = (editor: Editor) => (editor.isEmpty ? '' : editor.getHTML());

/** Reads a file as a data: URL (the image travels inside the template content). */
function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/**
 * Template content in a Tiptap editor (spec §2): 40vh high, a toolbar with an image button (images up to
 * 10 MB, 'Please do not exceed 10MB'), and the ${XXX} variable hint with insertable variables.
 */
export function RichTextEditor({
  id,
  value,
  onChange,
  disabled = false,
  height = '40vh',
}: RichTextEditorProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const fileInput = useRef<HTMLInputElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  const editor = useEditor({
    extensions: [StarterKit, Image.configure({ allowBase64: true })],
    content: value ?? '',
    editable: !disabled,
    onUpdate: ({ editor: current }) => onChangeRef.current?.(htmlOf(current)),
  });

  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      strike: current.isActive('strike'),
      bulletList: current.isActive('bulletList'),
      orderedList: current.isActive('orderedList'),
      html: htmlOf(current),
    }),
  });

  useEffect(() => {
    editor.setEditable(!disabled);
  }, [editor, disabled]);

  // The form may set the value (open another row, reset): follow it without echoing a change back.
  useEffect(() => {
    const next = value ?? '';
    if (next !== htmlOf(editor)) editor.commands.setContent(next, { emitUpdate: false });
  }, [editor, value]);

  const insertImage = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = checkImage(file);
    if (problem === 'tooLarge') {
      void message.error(t('messages.editor.imageTooLarge'));
      return;
    }
    if (problem === 'notImage') {
      void message.error(t('messages.editor.imageType'));
      return;
    }
    const src = await readAsDataUrl(file);
    editor.chain().focus().setImage({ src, alt: file.name }).run();
  };

  const tool = (label: string, icon: ReactNode, action: () => void, active = false) => (
    <Tooltip title={label}>
      <Button
        aria-label={label}
        size="small"
        type={active ? 'primary' : 'text'}
        icon={icon}
        disabled={disabled}
        onClick={action}
      />
    </Tooltip>
  );

  const used = templateVariables(state.html);

  return (
    <div id={id} data-testid="rich-text-editor">
      <div
        style={{
          border: `1px solid ${token.colorBorder}`,
          borderRadius: token.borderRadius,
          background: disabled ? token.colorBgContainerDisabled : token.colorBgContainer,
        }}
      >
        <div style={{ padding: 4, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
          <Space size={2} wrap>
            {tool(
              t('messages.editor.bold'),
              <BoldOutlined />,
              () => editor.chain().focus().toggleBold().run(),
              state.bold,
            )}
            {tool(
              t('messages.editor.italic'),
              <ItalicOutlined />,
              () => editor.chain().focus().toggleItalic().run(),
              state.italic,
            )}
            {tool(
              t('messages.editor.strike'),
              <StrikethroughOutlined />,
              () => editor.chain().focus().toggleStrike().run(),
              state.strike,
            )}
            <Divider type="vertical" />
            {tool(
              t('messages.editor.bulletList'),
              <UnorderedListOutlined />,
              () => editor.chain().focus().toggleBulletList().run(),
              state.bulletList,
            )}
            {tool(
              t('messages.editor.orderedList'),
              <OrderedListOutlined />,
              () => editor.chain().focus().toggleOrderedList().run(),
              state.orderedList,
            )}
            <Divider type="vertical" />
            {tool(t('messages.editor.image'), <PictureOutlined />, () => fileInput.current?.click())}
            {tool(t('messages.editor.undo'), <UndoOutlined />, () => editor.chain().focus().undo().run())}
            {tool(t('messages.editor.redo'), <RedoOutlined />, () => editor.chain().focus().redo().run())}
          </Space>
        </div>
        <input
          ref={fileInput}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          style={{ display: 'none' }}
          data-testid="rich-text-image-input"
          onChange={(event) => void insertImage(event)}
        />
        <EditorContent
          editor={editor}
          className="msg-rich-text"
          data-testid="rich-text-content"
          style={{
            height,
            overflowY: 'auto',
            padding: '4px 11px',
            cursor: disabled ? 'not-allowed' : 'text',
          }}
        />
      </div>
      <Typography.Text type="secondary" data-testid="variable-hint">
        {t('messages.editor.variableHint')}
      </Typography.Text>
      {!disabled && (
        <div style={{ marginTop: 4 }}>
          {KNOWN_VARIABLES.map((name) => (
            <Tag
              key={name}
              style={{ cursor: 'pointer' }}
              onClick={() => editor.chain().focus().insertContent(`\${${name}}`).run()}
            >{`\${${name}}`}</Tag>
          ))}
        </div>
      )}
      {used.length > 0 && (
        <div style={{ marginTop: 4 }} data-testid="variables-used">
          <Typography.Text type="secondary">{t('messages.editor.variablesUsed')}</Typography.Text>
          {used.map((name) => (
            <Tag key={name} color="blue">{`\${${name}}`}</Tag>
          ))}
        </div>
      )}
    </div>
  );
}
