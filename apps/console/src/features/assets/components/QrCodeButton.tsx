import { QrcodeOutlined } from '@ant-design/icons';
import { Modal, Space, Typography } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Shows a gun's QR code (what users scan to start charging) as an image, with its text. */
export function QrCodeButton({ value, title }: { value: string; title: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [image, setImage] = useState<string | undefined>();
  useEffect(() => {
    if (!open) return;
    let live = true;
    QRCode.toDataURL(value, { width: 240, margin: 1 }).then(
      (url) => live && setImage(url),
      () => live && setImage(undefined),
    );
    return () => {
      live = false;
    };
  }, [open, value]);
  return (
    <>
      <Typography.Link onClick={() => setOpen(true)} data-testid="gun-qr">
        <QrcodeOutlined /> {t('assets.gun.qrCode')}
      </Typography.Link>
      <Modal open={open} title={title} footer={null} onCancel={() => setOpen(false)} width={320}>
        <Space direction="vertical" align="center" style={{ width: '100%' }}>
          {image && <img src={image} alt={value} width={240} height={240} data-testid="gun-qr-image" />}
          <Typography.Text copyable>{value}</Typography.Text>
        </Space>
      </Modal>
    </>
  );
}
