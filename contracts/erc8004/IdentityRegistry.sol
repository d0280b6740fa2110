// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from '@openzeppelin/contracts/token/ERC721/ERC721.sol';
import {ERC721URIStorage} from '@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol';
import {EIP712} from '@openzeppelin/contracts/utils/cryptography/EIP712.sol';
import {SignatureChecker} from '@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol';

/// ERC-8004 Identity Registry (written here from the published interface, docs/erc8004.md): an
/// ERC-721 whose token id is the agentId and whose tokenURI is the agentURI (the registration
/// file), with key/value metadata. The reserved key "agentWallet" is set to the owner on
/// registration, changed only through setAgentWallet with an EIP-712 signature of the new wallet
/// (ECDSA or ERC-1271), and cleared on every transfer.
contract IdentityRegistry is ERC721URIStorage, EIP712 {
    struct MetadataEntry {
        string metadataKey;
        bytes metadataValue;
    }

    event Registered(uint256 indexed agentId, string agentURI, address indexed owner);
    event URIUpdated(uint256 indexed agentId, string newURI, address indexed updatedBy);
    event MetadataSet(uint256 indexed agentId, string indexed indexedMetadataKey, string metadataKey, bytes metadataValue);

    bytes32 private constant AGENT_WALLET_SET_TYPEHASH =
        keccak256('AgentWalletSet(uint256 agentId,address newWallet,address owner,uint256 deadline)');
    bytes32 private constant AGENT_WALLET_KEY = keccak256('agentWallet');
    uint256 private constant MAX_DEADLINE_DELAY = 5 minutes;

    uint256 private _lastId;
    mapping(uint256 => mapping(string => bytes)) private _metadata;

    constructor() ERC721('AgentIdentity', 'AGENT') EIP712('ERC8004IdentityRegistry', '1') {}

    function register() external returns (uint256 agentId) {
        agentId = _register('');
    }

    function register(string calldata agentURI) external returns (uint256 agentId) {
        agentId = _register(agentURI);
    }

    function register(string calldata agentURI, MetadataEntry[] calldata metadata) external returns (uint256 agentId) {
        agentId = _register(agentURI);
        for (uint256 i = 0; i < metadata.length; i++) {
            require(keccak256(bytes(metadata[i].metadataKey)) != AGENT_WALLET_KEY, 'reserved key');
            _metadata[agentId][metadata[i].metadataKey] = metadata[i].metadataValue;
            emit MetadataSet(agentId, metadata[i].metadataKey, metadata[i].metadataKey, metadata[i].metadataValue);
        }
    }

    function _register(string memory agentURI) private returns (uint256 agentId) {
        agentId = _lastId++;
        _safeMint(msg.sender, agentId);
        if (bytes(agentURI).length > 0) _setTokenURI(agentId, agentURI);
        _metadata[agentId]['agentWallet'] = abi.encodePacked(msg.sender);
        emit Registered(agentId, agentURI, msg.sender);
        emit MetadataSet(agentId, 'agentWallet', 'agentWallet', abi.encodePacked(msg.sender));
    }

    function isAuthorizedOrOwner(address spender, uint256 agentId) public view returns (bool) {
        return _isAuthorized(_requireOwned(agentId), spender, agentId);
    }

    function setAgentURI(uint256 agentId, string calldata newURI) external {
        require(isAuthorizedOrOwner(msg.sender, agentId), 'not authorized');
        _setTokenURI(agentId, newURI);
        emit URIUpdated(agentId, newURI, msg.sender);
    }

    function getMetadata(uint256 agentId, string calldata metadataKey) external view returns (bytes memory) {
        return _metadata[agentId][metadataKey];
    }

    function setMetadata(uint256 agentId, string calldata metadataKey, bytes calldata metadataValue) external {
        require(isAuthorizedOrOwner(msg.sender, agentId), 'not authorized');
        require(keccak256(bytes(metadataKey)) != AGENT_WALLET_KEY, 'reserved key');
        _metadata[agentId][metadataKey] = metadataValue;
        emit MetadataSet(agentId, metadataKey, metadataKey, metadataValue);
    }

    function getAgentWallet(uint256 agentId) external view returns (address) {
        bytes memory raw = _metadata[agentId]['agentWallet'];
        if (raw.length != 20) return address(0);
        return address(bytes20(raw));
    }

    /// The new wallet proves control by signing AgentWalletSet(agentId, newWallet, owner, deadline).
    function setAgentWallet(uint256 agentId, address newWallet, uint256 deadline, bytes calldata signature) external {
        address owner = _requireOwned(agentId);
        require(_isAuthorized(owner, msg.sender, agentId), 'not authorized');
        require(newWallet != address(0), 'zero wallet');
        require(block.timestamp <= deadline, 'expired');
        require(deadline <= block.timestamp + MAX_DEADLINE_DELAY, 'deadline too far');
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(AGENT_WALLET_SET_TYPEHASH, agentId, newWallet, owner, deadline)));
        require(SignatureChecker.isValidSignatureNow(newWallet, digest, signature), 'invalid wallet signature');
        _metadata[agentId]['agentWallet'] = abi.encodePacked(newWallet);
        emit MetadataSet(agentId, 'agentWallet', 'agentWallet', abi.encodePacked(newWallet));
    }

    function unsetAgentWallet(uint256 agentId) external {
        require(isAuthorizedOrOwner(msg.sender, agentId), 'not authorized');
        delete _metadata[agentId]['agentWallet'];
        emit MetadataSet(agentId, 'agentWallet', 'agentWallet', '');
    }

    /// A transfer clears agentWallet: the new owner must prove a wallet again.
    function _update(address to, uint256 tokenId, address auth) internal override returns (address from) {
        from = super._update(to, tokenId, auth);
        if (from != address(0) && to != address(0) && from != to) {
            delete _metadata[tokenId]['agentWallet'];
            emit MetadataSet(tokenId, 'agentWallet', 'agentWallet', '');
        }
    }
}
