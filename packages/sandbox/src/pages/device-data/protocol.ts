// The device-data collector's message to the checkout (docs/contracts.md section 1, "Device data").

export const DEVICE_DATA_MESSAGE_SOURCE = 'kassa-device-data';

/** The URL fragment, JSON: the checkout's origin, the only one the collector reports to. */
export interface CollectorFragment {
  parentOrigin: string;
}

/** `deviceData` is the string to send with the payment (and as the form post's device_data). */
export interface DeviceDataMessage {
  source: typeof DEVICE_DATA_MESSAGE_SOURCE;
  type: 'deviceData';
  deviceData: string;
}
